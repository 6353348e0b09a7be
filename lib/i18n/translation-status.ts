/*
 * Whether a field's English still follows its French, read from the content itself: every bilingual
 * field (localeString, localeText, localeBlockContent) keeps, beside its `fr` and `en`, the French the
 * English was written from (`enSource`: its text, and when). Because it is read from the content, a
 * French change made anywhere (the Studio, Presentation, the API, an import) marks the English, and
 * putting the French back as it was clears the mark. Shared by the Studio (the field, the list, the
 * overview, the validation) and the benchmark; pure, no request.
 */

/** What the Studio records when the English is written (or marked current): the French it follows, and when. */
export type EnglishSource = { fr?: string; at?: string }

/** A bilingual field as stored: plain text, or Portable Text blocks for rich text. */
export type LocaleValue = {
  _type?: string
  fr?: unknown
  en?: unknown
  enSource?: EnglishSource
  /** On an image's alternative text: the asset it was written for (the Studio records it). */
  forAsset?: string
}

/** « à jour », « à revoir », « manquant »; `none` when there is no French to translate yet. */
export type TranslationState = 'current' | 'stale' | 'missing' | 'none'

export const STATE_LABELS: Record<Exclude<TranslationState, 'none'>, string> = {
  current: 'à jour',
  stale: 'à revoir',
  missing: 'manquant',
}

export type TranslationStatus = {
  state: TranslationState
  /** The French now, as text. */
  fr: string
  /** The French the English was written from, as text (undefined when never recorded). */
  sourceFr?: string
  /** When the English was written or marked current. */
  writtenAt?: string
  /** An image's alternative text written for another image: both languages are « à revoir ». */
  imageReplaced?: boolean
}

type Block = { _type?: string; children?: { text?: unknown }[] }

/** The text of a field's value: a string as it is; Portable Text as its paragraphs' text, one per line. */
export function plainText(value: unknown): string {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return ''
  return (value as Block[])
    .filter((block) => block && block._type === 'block' && Array.isArray(block.children))
    .map((block) => block.children!.map((child) => (typeof child.text === 'string' ? child.text : '')).join(''))
    .join('\n')
}

/** Spaces collapsed and trimmed: what an editor sees is what is compared. */
const normalized = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The status of one bilingual field. */
export function translationStatus(value: LocaleValue | null | undefined): TranslationStatus {
  const fr = plainText(value?.fr)
  const en = plainText(value?.en)
  const sourceFr = value?.enSource?.fr
  const writtenAt = value?.enSource?.at
  if (!normalized(fr)) return { state: 'none', fr, sourceFr, writtenAt }
  if (!normalized(en)) return { state: 'missing', fr, sourceFr, writtenAt }
  // Written before the status existed (no source recorded): read as current (docs/sanity.md).
  if (sourceFr === undefined) return { state: 'current', fr, sourceFr, writtenAt }
  return { state: normalized(sourceFr) === normalized(fr) ? 'current' : 'stale', fr, sourceFr, writtenAt }
}

/** The record to store when the English is written, or marked current: the French it now follows. */
export function englishSourceFor(value: LocaleValue | null | undefined, now = new Date()): EnglishSource {
  return { fr: plainText(value?.fr), at: now.toISOString() }
}

/** Whether an image's alternative text was written for another image than `assetRef` (as recorded). */
export function altImageReplaced(alt: LocaleValue | null | undefined, assetRef: unknown): boolean {
  return alt?.forAsset !== undefined && typeof assetRef === 'string' && alt.forAsset !== assetRef
}

/** A path inside a document, as Sanity writes it (array members by `_key`). */
export type FieldPath = (string | number | { _key: string })[]

export type LocaleField = { path: FieldPath; value: LocaleValue; status: TranslationStatus }

const LOCALE_TYPES = new Set(['localeString', 'localeText', 'localeBlockContent'])

/** A bilingual field: one of the locale types, or (for values written without `_type`) an object with `fr`. */
function isLocaleValue(value: Record<string, unknown>): boolean {
  if (typeof value._type === 'string') return LOCALE_TYPES.has(value._type)
  const keys = Object.keys(value).filter((key) => !key.startsWith('_'))
  return (
    keys.length > 0 &&
    keys.every((key) => key === 'fr' || key === 'en' || key === 'enSource' || key === 'forAsset') &&
    'fr' in value
  )
}

/** Every bilingual field of a document, with its status, in document order (one walk, no request). */
export function localeFields(document: unknown): LocaleField[] {
  const found: LocaleField[] = []
  const walk = (value: unknown, path: FieldPath) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const key = item && typeof item === 'object' && typeof (item as { _key?: unknown })._key === 'string'
        walk(item, [...path, key ? { _key: (item as { _key: string })._key } : index])
      })
      return
    }
    if (!value || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    // An image whose alternative text was written for the image it replaced: both languages to review.
    const alt = record.alt as LocaleValue | undefined
    if (
      alt &&
      typeof alt === 'object' &&
      altImageReplaced(alt, (record.asset as { _ref?: unknown } | undefined)?._ref)
    ) {
      found.push({
        path: [...path, 'alt'],
        value: alt,
        status: { ...translationStatus(alt), state: 'stale', imageReplaced: true },
      })
      for (const [key, child] of Object.entries(record))
        if (!key.startsWith('_') && key !== 'alt') walk(child, [...path, key])
      return
    }
    if (path.length > 0 && isLocaleValue(record)) {
      found.push({ path, value: record as LocaleValue, status: translationStatus(record as LocaleValue) })
      return
    }
    for (const [key, child] of Object.entries(record)) if (!key.startsWith('_')) walk(child, [...path, key])
  }
  walk(document, [])
  return found
}

/** The fields whose English needs an editor: stale or missing. */
export function fieldsToReview(document: unknown): LocaleField[] {
  return localeFields(document).filter(({ status }) => status.state === 'stale' || status.state === 'missing')
}

/** A path as text, `packages[_key=="a1"].features[0]`, for lists and links. */
export function pathToString(path: FieldPath): string {
  return path
    .map((segment, index) =>
      typeof segment === 'string'
        ? `${index ? '.' : ''}${segment}`
        : typeof segment === 'number'
          ? `[${segment}]`
          : `[_key=="${segment._key}"]`,
    )
    .join('')
}
