import type { Schema } from 'sanity'
import { fieldsToReview, pathToString, STATE_LABELS, type FieldPath } from '../../lib/i18n/translation-status'

export type PendingField = {
  pathString: string
  /** The field as an editor names it: its titles from the document down, « Titre › Accroche ». */
  title: string
  state: 'stale' | 'missing'
  label: string
  /** Since when the English may be out of date: the document's last update. */
  since: string
}
export type PendingDocument = {
  id: string
  type: string
  typeTitle: string
  title: string
  fields: PendingField[]
  since: string
}

type SchemaTypeLike = {
  title?: string
  name?: string
  fields?: { name: string; type: SchemaTypeLike }[]
  of?: SchemaTypeLike[]
  jsonType?: string
}

/** The titles of a path's fields, from the schema (array members by their position, 1-based). */
function fieldTitles(type: SchemaTypeLike | undefined, path: FieldPath, document: unknown): string[] {
  const titles: string[] = []
  let current: SchemaTypeLike | undefined = type
  let value: unknown = document
  for (const segment of path) {
    if (typeof segment === 'string') {
      const field = current?.fields?.find((candidate) => candidate.name === segment)
      titles.push(field?.type.title ?? segment)
      current = field?.type
      value = (value as Record<string, unknown> | undefined)?.[segment]
    } else {
      const items = Array.isArray(value) ? value : []
      const index =
        typeof segment === 'number'
          ? segment
          : items.findIndex((item) => (item as { _key?: string })?._key === segment._key)
      const item = items[index] as { _type?: string } | undefined
      titles.push(`n° ${index + 1}`)
      current = current?.of?.find((member) => member.name === item?._type) ?? current?.of?.[0]
      value = item
    }
  }
  return titles
}

/** What a document is called in the lists: its title (French), else its name. */
function documentTitle(document: Record<string, unknown>): string | undefined {
  for (const key of ['title', 'name', 'brandName']) {
    const value = document[key] as { fr?: unknown } | string | undefined
    const text = typeof value === 'string' ? value : value?.fr
    if (typeof text === 'string' && text.trim()) return text
  }
  return undefined
}

/** Documents with at least one stale or missing English field, oldest French change first. */
export function pendingTranslations(documents: Record<string, unknown>[], schema: Schema): PendingDocument[] {
  const pending: PendingDocument[] = []
  for (const document of documents) {
    const fields = fieldsToReview(document)
    if (fields.length === 0) continue
    const type = String(document._type)
    const schemaType = schema.get(type) as unknown as SchemaTypeLike | undefined
    const updatedAt = String(document._updatedAt ?? '')
    const rows: PendingField[] = fields.map(({ path, status }) => ({
      pathString: pathToString(path),
      title: fieldTitles(schemaType, path, document).join(' › '),
      state: status.state as 'stale' | 'missing',
      label: `EN ${STATE_LABELS[status.state as 'stale' | 'missing']}`,
      since: updatedAt,
    }))
    rows.sort((a, b) => a.since.localeCompare(b.since))
    const id = String(document._id).replace(/^drafts\./, '')
    pending.push({
      id,
      type,
      typeTitle: schemaType?.title ?? type,
      title: documentTitle(document) || schemaType?.title || id,
      fields: rows,
      since: rows[0].since,
    })
  }
  return pending.sort((a, b) => a.since.localeCompare(b.since))
}
