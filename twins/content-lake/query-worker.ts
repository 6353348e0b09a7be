import { evaluate } from 'groq-js'
import { parentPort, workerData } from 'node:worker_threads'
import type { SanityDocument } from './document-store.ts'
import { ContentLakeError } from './content-lake-error.ts'
import { parseQuery, perspectiveView, runQuery, visibleTo, type Perspective, type QueryContext } from './query.ts'
import { inferSourceMap } from './source-map.ts'

/*
 * One query thread of the local Content Lake (query-pool.ts starts them). It keeps its own copy of
 * the dataset — given whole at start, then kept current by the changes of each committed
 * transaction, sent before any later query — so a query costs no copy of the documents. A query
 * that runs too long, or whose client has gone, is ended by terminating the whole thread. Listener
 * filters run here too (listener.ts), on the documents a transaction changed, which the job carries:
 * one expensive filter then costs a thread's time, never the request thread's (security review: 12
 * anonymous listeners with a costly filter held every write and query for seconds).
 */

export type QueryJob = {
  query: string
  params: Record<string, unknown>
  perspective: Perspective
  /** Editor token presented: drafts and other dotted ids are visible. */
  authenticated: boolean
  identity?: string
  /** Content Source Map to infer from the result (`resultSourceMap`), if any. */
  sourceMap?: 'plain' | 'withKeyArraySelector'
}

export type QueryOutcome = { result: unknown; resultSourceMap?: unknown }

/** A listener's filter, to evaluate on each of `documents` alone (as `*[filter]` over a one-document dataset). */
export type FilterJob = {
  query: string
  params: Record<string, unknown>
  /** The listener presented a token: its work goes ahead of anonymous work. */
  authenticated: boolean
  documents: SanityDocument[]
}

/** Per document: whether the filter selects it, or null when the filter cannot evaluate it. */
export type FilterMatches = (boolean | null)[]

export type WorkerMessage =
  | { kind: 'query'; id: number; job: QueryJob }
  | { kind: 'filter'; id: number; job: FilterJob }
  | { kind: 'apply'; changes: [string, SanityDocument | null][] }
  | { kind: 'load'; documents: SanityDocument[] }

/** `ready` once the thread listens (its modules loaded), then one reply per query. */
export type WorkerReply =
  | { ready: true }
  | { id: number; outcome: QueryOutcome }
  | { id: number; error: { status: number; body: unknown; message: string } }

export type WorkerSetup = { documents: SanityDocument[]; context: Omit<QueryContext, 'identity'> }

const setup = workerData as WorkerSetup
const port = parentPort!
const documents = new Map<string, SanityDocument>(setup.documents.map((doc) => [doc._id, doc]))
/** Views per visibility and perspective, rebuilt only after a change. */
let views = new Map<string, SanityDocument[]>()

function viewFor(job: QueryJob): SanityDocument[] {
  const key = `${job.authenticated}|${JSON.stringify(job.perspective)}`
  let view = views.get(key)
  if (!view) {
    view = perspectiveView([...documents.values()].filter(visibleTo(job.authenticated)), job.perspective)
    views.set(key, view)
  }
  return view
}

async function run(job: QueryJob): Promise<QueryOutcome> {
  const view = viewFor(job)
  const result = await runQuery(job.query, job.params, view, { ...setup.context, identity: job.identity })
  if (!job.sourceMap) return { result }
  return { result, resultSourceMap: inferSourceMap(result, view, job.sourceMap === 'withKeyArraySelector') }
}

async function filter(job: FilterJob): Promise<QueryOutcome> {
  const tree = parseQuery(job.query, job.params)
  const matches: FilterMatches = []
  for (const doc of job.documents) {
    try {
      const value = await evaluate(tree, { dataset: [doc], params: job.params, sanity: setup.context })
      const result = await value.get()
      matches.push(Array.isArray(result) ? result.length > 0 : Boolean(result))
    } catch {
      matches.push(null) // the listener skips a change its filter cannot evaluate
    }
  }
  return { result: matches }
}

port.on('message', (message: WorkerMessage) => {
  if (message.kind === 'apply') {
    for (const [id, doc] of message.changes) {
      if (doc) documents.set(id, doc)
      else documents.delete(id)
    }
    views = new Map()
    return
  }
  if (message.kind === 'load') {
    documents.clear()
    for (const doc of message.documents) documents.set(doc._id, doc)
    views = new Map()
    return
  }
  ;(message.kind === 'filter' ? filter(message.job) : run(message.job)).then(
    (outcome) => port.postMessage({ id: message.id, outcome } satisfies WorkerReply),
    (error: unknown) => {
      if (error instanceof ContentLakeError)
        port.postMessage({
          id: message.id,
          error: { status: error.status, body: error.body, message: error.message },
        } satisfies WorkerReply)
      else throw error // not the query's fault: the pool sees the thread die and answers 500
    },
  )
})
port.postMessage({ ready: true } satisfies WorkerReply)
