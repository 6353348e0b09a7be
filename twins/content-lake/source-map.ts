import type { SanityDocument } from './document-store.ts'

/*
 * Content Source Maps (`resultSourceMap=true|withKeyArraySelector` on a query): for each string in a
 * result, the document and field it came from. @sanity/client turns them into stega-encoded strings
 * (draft mode), which the Presentation tool's overlays decode to open the right field.
 *
 * The hosted Content Lake records provenance while it evaluates GROQ. groq-js cannot (values carry no
 * origin), so the local Content Lake infers it afterwards, by value: every string leaf of the result
 * is looked up among the string fields of the documents the query saw. A value found in one place maps
 * there; a value found in several places maps to the best-ranked one: a field of the document whose
 * `_id` the nearest enclosing result object carries, then a field named like the result key, then
 * dataset order. What this leaves out (README): strings the query computed (concatenations, `pt::text`,
 * …) have no mapping, and a value repeated word for word in two documents may map to the other one
 * when the result does not project `_id`. Only strings are mapped: stega encodes nothing else.
 */

type KeySegment = { _key: string }
type PathSegment = string | number | KeySegment

export type SourceMapMapping = { type: 'value'; source: { type: 'documentValue'; document: number; path: number } }

export type ContentSourceMap = {
  documents: { _id: string; _type: string }[]
  paths: string[]
  mappings: Record<string, SourceMapMapping>
}

type Origin = { doc: SanityDocument; order: number; path: PathSegment[] }

const LOCALE_KEYS = new Set(['fr', 'en'])

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** JSONPath as the Content Lake writes it: `$['a'][0]` or, with key selectors, `$['a'][?(@._key=='k')]`. */
function jsonPath(path: PathSegment[]): string {
  const quote = (text: string) =>
    text
      .replace(/[\\']/g, (match) => `\\${match}`)
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t')
      .replace(/\f/g, '\\f')
  return `$${path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : typeof segment === 'string' ? `['${quote(segment)}']` : `[?(@._key=='${quote(segment._key)}')]`)).join('')}`
}

/** Every string field of every document (system fields excepted), by value. */
function indexStrings(documents: SanityDocument[]): Map<string, Origin[]> {
  const index = new Map<string, Origin[]>()
  documents.forEach((doc, order) => {
    const visit = (value: unknown, path: PathSegment[], withKeys: boolean) => {
      if (typeof value === 'string') {
        const last = path.at(-1)
        if (typeof last === 'string' && last.startsWith('_')) return
        const origins = index.get(value) ?? []
        origins.push({ doc, order, path })
        index.set(value, origins)
      } else if (Array.isArray(value)) {
        value.forEach((item, i) =>
          visit(
            item,
            [...path, withKeys && isRecord(item) && typeof item._key === 'string' ? { _key: item._key } : i],
            withKeys,
          ),
        )
      } else if (isRecord(value)) {
        for (const [key, child] of Object.entries(value)) visit(child, [...path, key], withKeys)
      }
    }
    for (const [key, value] of Object.entries(doc)) if (!key.startsWith('_')) visit(value, [key], true)
  })
  return index
}

/** The name a result key and a document field share: `title` for `hero.title.fr`. */
function fieldName(path: PathSegment[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i]
    if (typeof segment === 'string' && !LOCALE_KEYS.has(segment)) return segment
  }
  return undefined
}

function rank(origin: Origin, enclosingIds: string[], resultKey: string | undefined): number {
  let score = 0
  const nearest = enclosingIds.at(-1)
  if (nearest !== undefined && origin.doc._id === nearest) score += 8
  else if (enclosingIds.includes(origin.doc._id)) score += 4
  if (resultKey !== undefined && fieldName(origin.path) === resultKey) score += 2
  return score
}

/**
 * The source map of a query result over the documents the query saw (the perspective's view, whose
 * `_originalId` names the draft or version a value really comes from). `withKeyArraySelector` writes
 * array items with a `_key` as key selectors, as the Studio needs to find a Portable Text span.
 */
export function inferSourceMap(
  result: unknown,
  documents: SanityDocument[],
  withKeyArraySelector: boolean,
): ContentSourceMap {
  const index = indexStrings(documents)
  const map: ContentSourceMap = { documents: [], paths: [], mappings: {} }
  const documentIndex = new Map<SanityDocument, number>()
  const pathIndex = new Map<string, number>()

  const sourcePath = (path: PathSegment[], doc: SanityDocument) => {
    if (withKeyArraySelector) return jsonPath(path)
    // Without key selectors, array items are addressed by position in the source document.
    const positional: PathSegment[] = []
    let node: unknown = doc
    for (const segment of path) {
      if (typeof segment === 'object' && Array.isArray(node)) {
        const position = node.findIndex((item) => isRecord(item) && item._key === segment._key)
        positional.push(position)
        node = node[position]
      } else {
        positional.push(segment)
        node =
          isRecord(node) || Array.isArray(node)
            ? (node as Record<string | number, unknown>)[segment as string | number]
            : undefined
      }
    }
    return jsonPath(positional)
  }

  const record = (resultPath: (string | number)[], origin: Origin) => {
    let docNumber = documentIndex.get(origin.doc)
    if (docNumber === undefined) {
      docNumber =
        map.documents.push({ _id: String(origin.doc._originalId ?? origin.doc._id), _type: origin.doc._type }) - 1
      documentIndex.set(origin.doc, docNumber)
    }
    const path = sourcePath(origin.path, origin.doc)
    let pathNumber = pathIndex.get(path)
    if (pathNumber === undefined) {
      pathNumber = map.paths.push(path) - 1
      pathIndex.set(path, pathNumber)
    }
    map.mappings[jsonPath(resultPath)] = {
      type: 'value',
      source: { type: 'documentValue', document: docNumber, path: pathNumber },
    }
  }

  const walk = (value: unknown, resultPath: (string | number)[], enclosingIds: string[]) => {
    if (typeof value === 'string') {
      const origins = index.get(value)
      if (!origins) return
      const resultKey = fieldName(resultPath.filter((segment): segment is string => typeof segment === 'string'))
      let best = origins[0]
      let bestScore = rank(best, enclosingIds, resultKey)
      for (const origin of origins.slice(1)) {
        const score = rank(origin, enclosingIds, resultKey)
        if (score > bestScore || (score === bestScore && origin.order < best.order)) [best, bestScore] = [origin, score]
      }
      record(resultPath, best)
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...resultPath, i], enclosingIds))
    } else if (isRecord(value)) {
      const ids = typeof value._id === 'string' ? [...enclosingIds, value._id] : enclosingIds
      for (const [key, child] of Object.entries(value)) if (!key.startsWith('_')) walk(child, [...resultPath, key], ids)
    }
  }
  walk(result, [], [])
  return map
}
