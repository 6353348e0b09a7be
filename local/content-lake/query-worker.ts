import { parentPort, workerData } from 'node:worker_threads'
import type { SanityDocument } from './document-store.ts'
import { ContentLakeError } from './content-lake-error.ts'
import { perspectiveView, runQuery, visibleTo, type Perspective, type QueryContext } from './query.ts'
import { inferSourceMap } from './source-map.ts'

/*
 * One query thread of the local Content Lake (query-pool.ts starts them). It keeps its own copy of
 * the dataset — given whole at start, then kept current by the changes of each committed
 * transaction, sent before any later query — so a query costs no copy of the documents. A query
 * that runs too long, or whose client has gone, is ended by terminating the whole thread.
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

export type WorkerMessage =
  | { kind: 'query'; id: number; job: QueryJob }
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
  run(message.job).then(
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
