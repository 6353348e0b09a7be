import { evaluate, GroqSyntaxError, parse, type ExprNode } from 'groq-js'
import { ByteBoundedCache } from './byte-bounded-cache.ts'
import type { SanityDocument } from './document-store.ts'
import { MAX_JSON_DEPTH, jsonValueDepth } from '../http-kit.ts'
import { ContentLakeError, badRequest } from './content-lake-error.ts'

/*
 * GROQ through groq-js, with what groq-js leaves to the Content Lake: who may see what, perspectives
 * (groq-js evaluates over whatever dataset it is given) and `text::query()` (groq-js has no search
 * engine).
 */

export type Perspective = 'raw' | 'published' | 'drafts' | string[]

const isDraftId = (id: string) => id.startsWith('drafts.')
const isVersionId = (id: string) => id.startsWith('versions.')

/** The published id a draft or release version belongs to. */
export function publishedIdOf(id: string): string {
  if (isDraftId(id)) return id.slice('drafts.'.length)
  if (isVersionId(id)) return id.split('.').slice(2).join('.')
  return id
}

/**
 * Anonymous readers of a public dataset see only documents at the root path: drafts, versions and
 * every other dotted id are private (https://www.sanity.io/docs/ids).
 */
export function visibleTo(authenticated: boolean): (doc: SanityDocument) => boolean {
  return authenticated ? () => true : (doc) => !doc._id.includes('.')
}

/**
 * Parses the `perspective` parameter. Missing: `published` from API v2025-02-19 on, `raw` before
 * (https://www.sanity.io/docs/content-lake/perspectives). `previewDrafts` is the old name of `drafts`;
 * a comma-separated list is a release stack (release ids, then `drafts`, then `published`).
 */
export function parsePerspective(value: string | null, apiVersion: string): Perspective {
  if (!value) return apiVersion >= '2025-02-19' || apiVersion === 'X' ? 'published' : 'raw'
  if (value === 'raw' || value === 'published' || value === 'drafts') return value
  if (value === 'previewDrafts') return 'drafts'
  const stack = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  if (stack.length === 0 || stack.some((part) => !/^[a-zA-Z0-9_-]+$/.test(part) || part === 'raw')) {
    throw badRequest(`Invalid perspective "${value}"`, 'queryParseError')
  }
  return stack
}

/**
 * The documents a query sees under a perspective. `drafts` and release stacks overlay each published
 * document with its highest layer (versions in stack order, then the draft, then itself), give the
 * result the published `_id` and keep the source id in `_originalId`, as the Content Lake does.
 */
export function perspectiveView(documents: SanityDocument[], perspective: Perspective): SanityDocument[] {
  if (perspective === 'raw') return documents
  if (perspective === 'published') return documents.filter((doc) => !isDraftId(doc._id) && !isVersionId(doc._id))
  const stack = perspective === 'drafts' ? ['drafts', 'published'] : perspective
  const layerOf = (id: string): number => {
    if (isDraftId(id)) return stack.indexOf('drafts')
    if (isVersionId(id)) return stack.indexOf(id.split('.')[1])
    return stack.length // published documents are the bottom layer of every stack
  }
  const chosen = new Map<string, { doc: SanityDocument; layer: number }>()
  for (const doc of documents) {
    const layer = layerOf(doc._id)
    if (layer < 0) continue
    const id = publishedIdOf(doc._id)
    const current = chosen.get(id)
    if (!current || layer < current.layer) chosen.set(id, { doc, layer })
  }
  return [...chosen.entries()].map(([id, { doc }]) =>
    doc._id === id ? doc : { ...doc, _id: id, _originalId: doc._id },
  )
}

type Node = Record<string, unknown>

/**
 * groq-js throws on `text::query()`. The Studio's default search (strategy `groq2024`) puts
 * `[@, _id] match text::query($__query)` into every document list; the twin reads it as a plain
 * `match` on the same pattern, which lists everything for the list's `*` and matches ids otherwise
 * (the Studio here uses the `groqLegacy` search strategy, whose `match` queries groq-js runs as is).
 */
function withoutTextQuery(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTextQuery)
  if (!node || typeof node !== 'object') return node
  const record = node as Node
  if (record.type === 'FuncCall' && record.namespace === 'text' && record.name === 'query') {
    const args = record.args as unknown[]
    return args.length > 0 ? withoutTextQuery(args[0]) : { type: 'Value', value: '*' }
  }
  const out: Node = {}
  for (const [key, value] of Object.entries(record)) out[key] = withoutTextQuery(value)
  return out
}

/**
 * The hosted API refuses queries over 300 kB ("Query Size Exceeded", sanity.io/guides/
 * how-to-parallelize-complex-groq-queries); here the whole POST body (query and parameters) counts.
 */
export const MAX_QUERY_BODY_BYTES = 300_000

/*
 * Parsed trees, per query and parameter set (groq-js folds parameters in at parse time), bounded by
 * an estimate of their size rather than their number: a tree costs about eight bytes per character
 * of query and parameters. Trees of queries over 128 kB are not kept.
 */
const PARSE_CACHE_BYTES = 32 * 1024 * 1024
const BYTES_PER_CHARACTER = 8
const parsed = new ByteBoundedCache<ExprNode>(PARSE_CACHE_BYTES, 128 * 1024 * BYTES_PER_CHARACTER)

/** groq-js folds parameters in at parse time: the tree is cached per query and parameter set. */
export function parseQuery(query: string, params: Record<string, unknown>): ExprNode {
  if (jsonValueDepth(params) > MAX_JSON_DEPTH)
    throw badRequest(`Query parameters are nested deeper than ${MAX_JSON_DEPTH} levels`, 'queryParseError')
  const key = `${JSON.stringify(params)}\u0000${query}`
  const cached = parsed.get(key)
  if (cached) return cached
  let tree: ExprNode
  try {
    tree = withoutTextQuery(parse(query, { params })) as ExprNode
  } catch (error) {
    if (error instanceof GroqSyntaxError) {
      const { position } = error as GroqSyntaxError & { position: number }
      throw new ContentLakeError(
        400,
        { error: { description: error.message, query, start: position, end: position + 1, type: 'queryParseError' } },
        error.message,
      )
    }
    const message = error instanceof Error ? error.message : String(error)
    throw new ContentLakeError(400, { error: { description: message, query, type: 'queryParseError' } }, message)
  }
  parsed.set(key, tree, key.length * BYTES_PER_CHARACTER)
  return tree
}

export type QueryContext = { projectId: string; dataset: string; identity?: string }

/** Evaluates GROQ over the given documents; evaluation errors are 400s in the API's shape. */
export async function runQuery(
  query: string,
  params: Record<string, unknown>,
  documents: SanityDocument[],
  context: QueryContext,
): Promise<unknown> {
  const tree = parseQuery(query, params)
  try {
    const value = await evaluate(tree, {
      dataset: documents,
      params,
      identity: context.identity,
      sanity: { projectId: context.projectId, dataset: context.dataset },
    })
    return await value.get()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new ContentLakeError(400, { error: { description: message, query, type: 'queryExecutionError' } }, message)
  }
}

/** Reads `$name=<JSON>` query-string parameters, as @sanity/client encodes them. */
export function paramsFromSearch(search: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, value] of search) {
    if (!key.startsWith('$')) continue
    try {
      params[key.slice(1)] = JSON.parse(value)
    } catch {
      throw badRequest(`Parameter "${key}" is not valid JSON`, 'queryParseError')
    }
  }
  if (jsonValueDepth(params) > MAX_JSON_DEPTH)
    throw badRequest(`Query parameters are nested deeper than ${MAX_JSON_DEPTH} levels`, 'queryParseError')
  return params
}
