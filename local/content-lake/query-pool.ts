import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { DocumentStore } from './document-store.ts'
import { ContentLakeError } from './content-lake-error.ts'
import type { QueryJob, QueryOutcome, WorkerMessage, WorkerReply, WorkerSetup } from './query-worker.ts'

/*
 * GROQ off the request thread (issue #20: one anonymous `count(*[count(*[…])])` five levels deep
 * took the server's only thread for seconds, six levels for minutes). Queries run in a few warm
 * worker threads, one query per thread at a time, the others waiting in line. A query that runs
 * past the time limit, or whose client goes away, is stopped by terminating its thread; a fresh
 * one takes its place. Each thread keeps its own copy of the documents and receives every
 * committed change before any later query (message order), so a query sees every write
 * acknowledged before it was asked and no document is copied per query.
 */

export type QueryPoolOptions = {
  /** Threads (default: up to two, as many as the machine has cores). */
  size?: number
  /** How long one query may run once a thread has taken it (default 10 s). */
  timeoutMs?: number
  /** Heap limit of each thread, so one query's memory cannot take the server down (default 512 MB). */
  maxHeapMb?: number
  context: WorkerSetup['context']
  log: (entry: Record<string, unknown>) => void
}

type Waiting = {
  job: QueryJob
  resolve: (outcome: QueryOutcome) => void
  reject: (error: Error) => void
  signal?: AbortSignal
  onAbort?: () => void
  timer?: NodeJS.Timeout
}
type Slot = { worker: Worker | null; ready: boolean; running: (Waiting & { id: number }) | null }

const WORKER_FILE = new URL('./query-worker.ts', import.meta.url)

export const DEFAULT_QUERY_TIMEOUT_MS = 10_000

export function queryTimeoutError(job: QueryJob, timeoutMs: number): ContentLakeError {
  const description = `Query exceeded the time limit of ${timeoutMs} ms and was stopped: make it cheaper (filter before nesting subqueries)`
  return new ContentLakeError(
    400,
    { error: { description, query: job.query, type: 'queryExecutionError' } },
    description,
  )
}

export class QueryPool {
  private readonly store: DocumentStore
  private readonly slots: Slot[]
  private readonly queue: Waiting[] = []
  private readonly timeoutMs: number
  private readonly options: QueryPoolOptions
  private readonly unsubscribe: () => void
  private nextId = 0
  private closed = false

  constructor(store: DocumentStore, options: QueryPoolOptions) {
    this.store = store
    this.options = options
    this.timeoutMs = options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
    const size = Math.max(1, options.size ?? Math.min(2, availableParallelism()))
    this.slots = Array.from({ length: size }, () => ({ worker: null, ready: false, running: null }))
    this.unsubscribe = store.subscribe((transaction) => {
      const message: WorkerMessage = {
        kind: 'apply',
        changes: transaction.changes.map((change) => [change.id, change.after]),
      }
      for (const slot of this.slots) slot.worker?.postMessage(message)
    })
    for (const slot of this.slots) this.spawn(slot)
  }

  /**
   * Runs one query; rejects with a ContentLakeError (4xx) for the query's own faults. The time limit
   * counts from the moment a thread takes the query: neither the wait in line nor a fresh thread's
   * start (seconds on a busy machine) eats into it. A request that waits too long in line is cut by
   * the connection's request limit, and its query leaves the line with its client.
   */
  run(job: QueryJob, signal?: AbortSignal): Promise<QueryOutcome> {
    if (this.closed) return Promise.reject(new Error('the query pool is closed'))
    return new Promise<QueryOutcome>((resolve, reject) => {
      const waiting: Waiting = { job, resolve, reject, signal }
      if (signal) {
        if (signal.aborted) return reject(new Error('the client went away'))
        waiting.onAbort = () => this.abandon(waiting, new Error('the client went away'))
        signal.addEventListener('abort', waiting.onAbort, { once: true })
      }
      this.queue.push(waiting)
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.unsubscribe()
    for (const waiting of this.queue.splice(0))
      this.settle(waiting, () => waiting.reject(new Error('the server is shutting down')))
    await Promise.all(
      this.slots.map((slot) => {
        const running = slot.running
        if (running) this.finish(slot, () => running.reject(new Error('the server is shutting down')))
        const worker = slot.worker
        slot.worker = null
        return worker?.terminate()
      }),
    )
  }

  /** Starts a thread with the documents as they are now; changes committed meanwhile are posted to it and wait in its queue. */
  private spawn(slot: Slot) {
    if (this.closed) return
    const setup: WorkerSetup = { documents: this.store.all(), context: this.options.context }
    const maxHeapMb = this.options.maxHeapMb ?? 512
    const worker = new Worker(WORKER_FILE, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } })
    slot.worker = worker
    slot.ready = false
    worker.on('message', (reply: WorkerReply) => {
      if (slot.worker !== worker) return
      if ('ready' in reply) {
        // Queries wait for this rather than 'online': the thread's start must not eat into their time.
        slot.ready = true
        return this.dispatch()
      }
      const running = slot.running
      if (!running || running.id !== reply.id) return
      this.finish(slot, () =>
        'outcome' in reply
          ? running.resolve(reply.outcome)
          : running.reject(new ContentLakeError(reply.error.status, reply.error.body, reply.error.message)),
      )
      this.dispatch()
    })
    worker.on('error', (error) =>
      this.options.log({ event: 'query-worker-error', error: error.stack ?? String(error) }),
    )
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return // replaced on purpose
      slot.worker = null
      const running = slot.running
      if (running) {
        this.options.log({ event: 'query-worker-exit', code, query: running.job.query.slice(0, 200) })
        // Out of memory (the heap limit) or a bug: the query is refused, the server goes on.
        this.finish(slot, () =>
          running.reject(
            new ContentLakeError(
              400,
              {
                error: {
                  description: 'The query used more memory than the local Content Lake allows',
                  query: running.job.query,
                  type: 'queryExecutionError',
                },
              },
              'query thread died',
            ),
          ),
        )
      }
      this.spawn(slot)
    })
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return
      if (!slot.ready || !slot.worker || slot.running) continue
      const waiting = this.queue.shift()!
      const id = ++this.nextId
      slot.running = { ...waiting, id }
      slot.running.timer = setTimeout(
        () => this.abandon(waiting, queryTimeoutError(waiting.job, this.timeoutMs)),
        this.timeoutMs,
      )
      slot.worker.postMessage({ kind: 'query', id, job: waiting.job } satisfies WorkerMessage)
    }
  }

  /** Time is up or the client went away: drop the query from the line, or stop the thread running it. */
  private abandon(waiting: Waiting, error: Error) {
    const index = this.queue.indexOf(waiting)
    if (index >= 0) {
      this.queue.splice(index, 1)
      return this.settle(waiting, () => waiting.reject(error))
    }
    const slot = this.slots.find((candidate) => candidate.running?.resolve === waiting.resolve)
    if (slot) this.restart(slot, error)
  }

  /** Ends the running query with `error` and replaces its thread (terminate stops even a loop that never yields). */
  private restart(slot: Slot, error: Error) {
    const running = slot.running
    if (running) this.finish(slot, () => running.reject(error))
    const worker = slot.worker
    slot.worker = null
    slot.ready = false
    void worker?.terminate()
    this.spawn(slot)
  }

  private finish(slot: Slot, settle: () => void) {
    const running = slot.running!
    slot.running = null
    this.settle(running, settle)
  }

  private settle(waiting: Waiting, settle: () => void) {
    clearTimeout(waiting.timer)
    if (waiting.signal && waiting.onAbort) waiting.signal.removeEventListener('abort', waiting.onAbort)
    settle()
  }
}
