import type { Schema } from 'sanity'
import { fieldsToReview, pathToString, STATE_LABELS, type FieldPath } from '../../lib/i18n/translation-status'

export type PendingField = {
  pathString: string
  /** The field as an editor names it: its titles from the document down, « Titre › Accroche ». */
  title: string
  /** 'unpublished': stale or missing in the published document, fixed in its draft (« à publier »). */
  state: 'stale' | 'missing' | 'unpublished'
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

/**
 * Documents with at least one English field that needs an editor, oldest French change first, from
 * the documents as the Content Lake holds them (published and drafts): a field stale or missing in
 * what editors see (the draft, else the published document), and a field the site still shows stale
 * whose draft fixes it (« à publier »), so the list never says « à jour » while the site is not.
 */
export function pendingTranslations(documents: Record<string, unknown>[], schema: Schema): PendingDocument[] {
  const pairs = new Map<string, { published?: Record<string, unknown>; draft?: Record<string, unknown> }>()
  for (const document of documents) {
    const rawId = String(document._id)
    const id = rawId.replace(/^drafts\./, '')
    if (id.includes('.')) continue // release versions (versions.<release>.<id>): not served here
    const pair = pairs.get(id) ?? {}
    pair[rawId.startsWith('drafts.') ? 'draft' : 'published'] = document
    pairs.set(id, pair)
  }
  const pending: PendingDocument[] = []
  for (const [id, { published, draft }] of pairs) {
    const document = (draft ?? published)!
    const type = String(document._type)
    const schemaType = schema.get(type) as unknown as SchemaTypeLike | undefined
    const updatedAt = String(document._updatedAt ?? '')
    const row = (path: FieldPath, state: PendingField['state'], source: Record<string, unknown>): PendingField => ({
      pathString: pathToString(path),
      title: fieldTitles(schemaType, path, source).join(' › '),
      state,
      label: `EN ${state === 'unpublished' ? 'à publier' : STATE_LABELS[state]}`,
      since: updatedAt,
    })
    const rows = fieldsToReview(document).map(({ path, status }) => {
      const field = row(path, status.state as 'stale' | 'missing', document)
      return status.imageReplaced ? { ...field, label: 'FR et EN à revoir (image remplacée)' } : field
    })
    if (draft && published) {
      const open = new Set(rows.map((field) => field.pathString))
      for (const { path } of fieldsToReview(published))
        if (!open.has(pathToString(path))) rows.push(row(path, 'unpublished', published))
    }
    if (rows.length === 0) continue
    rows.sort((a, b) => a.since.localeCompare(b.since))
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

/** How many fields of all documents need an editor (the structure's « Traductions à revoir » count). */
export const pendingFieldCount = (documents: PendingDocument[]) =>
  documents.reduce((sum, document) => sum + document.fields.length, 0)
