import type { DocumentBadgeComponent, PreviewConfig } from 'sanity'
import { fieldsToReview } from '../../lib/i18n/translation-status'

const PREFIX = '__translation_'

/** « EN à revoir (2) »: what the list and the document's header say of a document's English. */
export function reviewLabel(count: number): string {
  return `EN à revoir${count > 1 ? ` (${count})` : ''}`
}

type DocumentTypeLike = { name: string; type: string; fields?: { name: string }[]; preview?: PreviewConfig }

/**
 * A document type whose list entry carries « EN à revoir » (before its own subtitle) while one of its
 * bilingual fields is stale or missing: its preview also selects its top-level fields, whose bilingual
 * fields the status is read from (no request of its own: the list's preview query fetches them).
 */
export function withTranslationPreview<T extends DocumentTypeLike>(type: T): T {
  const preview = type.preview ?? {}
  const own = preview.select ?? {}
  const fields = (type.fields ?? []).map(({ name }) => name)
  const select = { ...own, ...Object.fromEntries(fields.map((name) => [`${PREFIX}${name}`, name])) }
  return {
    ...type,
    preview: {
      select,
      prepare(selection: Record<string, unknown>) {
        const ownSelection = Object.fromEntries(Object.entries(selection).filter(([key]) => !key.startsWith(PREFIX)))
        const content = Object.fromEntries(
          Object.entries(selection)
            .filter(([key]) => key.startsWith(PREFIX))
            .map(([key, value]) => [key.slice(PREFIX.length), value]),
        )
        const prepared = (preview.prepare ? preview.prepare(ownSelection) : ownSelection) as Record<string, unknown>
        const count = fieldsToReview(content).length
        if (count === 0) return prepared
        const subtitle = typeof prepared.subtitle === 'string' && prepared.subtitle ? ` · ${prepared.subtitle}` : ''
        return { ...prepared, subtitle: `${reviewLabel(count)}${subtitle}` }
      },
    },
  }
}

/** The document's header: how many of its English fields need an editor (the draft, else the published). */
export const TranslationBadge: DocumentBadgeComponent = ({ draft, published }) => {
  const count = fieldsToReview(draft ?? published).length
  return count === 0
    ? null
    : {
        label: reviewLabel(count),
        title: `${count} champ${count > 1 ? 's' : ''} dont l’anglais est à revoir ou manquant`,
        color: 'warning',
      }
}
