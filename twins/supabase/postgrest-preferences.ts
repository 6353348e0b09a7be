import { QueryError } from './postgrest-query.ts'

/*
 * The request headers that change what PostgREST does, read as PostgREST 12 reads them: \`Prefer\`
 * (readPreferences) and \`Accept\` (negotiateMedia). What the twin does not carry out is refused, never
 * dropped (README, What it leaves out).
 */

/** The preferences PostgREST 12 knows (docs: references/api/preferences) that the twin carries out. */
export type Preferences = {
  return?: 'representation' | 'minimal' | 'headers-only'
  count?: 'exact' | 'planned' | 'estimated'
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missing?: 'default' | 'null'
  tx?: 'commit' | 'rollback'
  handling?: 'strict' | 'lenient'
  maxAffected?: number
}

const PREFERENCE_VALUES: Record<string, string[]> = {
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
}
/** Preferences PostgREST 12 carries out and the twin does not: refused whatever the handling. */
const UNSUPPORTED_PREFERENCES = new Set(['timezone', 'params'])

/**
 * `Prefer: …` read as PostgREST reads it: comma-separated `name=value` items, the first of a name
 * winning. Under handling=lenient (the default) invalid or unknown items are ignored, as PostgREST
 * ignores them; under handling=strict they are 400 PGRST122. A preference PostgREST honours and the
 * twin does not (timezone, params) is refused either way, never silently dropped.
 */
export function readPreferences(header: string | string[] | undefined): Preferences {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '')
  const preferences: Preferences = {}
  const invalid: string[] = []
  const unsupported: string[] = []
  const seen = new Set<string>()
  for (const raw of text.split(',')) {
    const item = raw.trim()
    if (!item) continue
    const equals = item.indexOf('=')
    const name = (equals < 0 ? item : item.slice(0, equals)).trim()
    const value = equals < 0 ? null : item.slice(equals + 1).trim()
    if (UNSUPPORTED_PREFERENCES.has(name)) {
      unsupported.push(item)
      continue
    }
    const valid =
      value !== null &&
      (name === 'max-affected' ? /^\d{1,9}$/.test(value) : (PREFERENCE_VALUES[name]?.includes(value) ?? false))
    if (!valid) {
      invalid.push(item)
      continue
    }
    if (seen.has(name)) continue
    seen.add(name)
    if (name === 'max-affected') preferences.maxAffected = Number(value)
    else (preferences as Record<string, string>)[name] = value
  }
  if (unsupported.length)
    throw new QueryError('PGRST', `not supported by the local Supabase server: Prefer: ${unsupported.join(', ')}`, {
      details: 'The twin carries out return, count, resolution, missing, tx, handling and max-affected only',
    })
  if (preferences.handling === 'strict' && invalid.length)
    throw new QueryError('PGRST122', 'Invalid preferences given with handling=strict', {
      details: `Invalid preferences: ${invalid.join(', ')}`,
    })
  return preferences
}

/** What a response may be: a JSON array, one JSON object (`.single()`), or CSV. */
export type MediaType = 'json' | 'object' | 'csv'

/** Media types PostgREST 12 produces that the twin does not: refused rather than answered as JSON. */
const UNSUPPORTED_MEDIA = new Set([
  'application/geo+json',
  'application/openapi+json',
  'application/octet-stream',
  'application/vnd.pgrst.plan',
  'application/vnd.pgrst.plan+json',
  'application/vnd.pgrst.plan+text',
  'text/plain',
  'text/xml',
])

/**
 * `Accept` negotiated as PostgREST does: by quality, then order; the first type it can produce wins,
 * types it does not know are passed over, and none at all is 406 PGRST107. A type PostgREST produces
 * and the twin does not (GeoJSON, plans, text, binary, `nulls=stripped`) is refused explicitly.
 */
export function negotiateMedia(header: string | undefined, offers: MediaType[] = ['json', 'object', 'csv']): MediaType {
  if (header === undefined || header.trim() === '') return 'json'
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [type, ...parameters] = part.split(';').map((piece) => piece.trim())
      const params = new Map(
        parameters.map((parameter) => {
          const [key, value = ''] = parameter.split('=').map((piece) => piece.trim())
          return [key.toLowerCase(), value]
        }),
      )
      const q = params.has('q') ? Number(params.get('q')) : 1
      params.delete('q')
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index, text: part.trim() }
    })
    .filter((range) => range.type && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const range of ranges) {
    let media: MediaType | null = null
    if (range.type === '*/*' || range.type === 'application/json' || range.type === 'application/vnd.pgrst.array+json')
      media = 'json'
    else if (range.type === 'application/vnd.pgrst.object+json' || range.type === 'application/vnd.pgrst.object')
      media = 'object'
    else if (range.type === 'text/csv') media = 'csv'
    else if (UNSUPPORTED_MEDIA.has(range.type)) media = null
    else continue
    const extra = [...range.params.keys()].filter((key) => key !== 'charset')
    if (media === null || extra.length > 0 || !offers.includes(media))
      throw new QueryError('PGRST', `not supported by the local Supabase server: Accept: ${range.text}`, {
        status: 406,
        details: `The twin produces ${offers.map((offer) => MEDIA_NAMES[offer]).join(', ')} here`,
      })
    return media
  }
  throw new QueryError(
    'PGRST107',
    `None of these media types are available: ${ranges.map((range) => range.type).join(', ') || header.trim()}`,
    { status: 406 },
  )
}

const MEDIA_NAMES: Record<MediaType, string> = {
  json: 'application/json',
  object: 'application/vnd.pgrst.object+json',
  csv: 'text/csv',
}
