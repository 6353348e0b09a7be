import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { DocumentStore } from './document-store.ts'
import { ContentLakeError } from './content-lake-error.ts'
import type {
  FilterJob,
  FilterMatches,
  QueryJob,
  QueryOutcome,
  WorkerMessage,
  WorkerReply,
  WorkerSetup,
} from './query-worker.ts'

/*
 * GROQ off the request thread (issue #20: one anonymous `count(*[count(*[…])])` five levels deep
 * took the server's only thread for seconds, six levels for minutes). Queries run in a few warm
 * worker threads, one query per thread at a time, the others waiting in line. A query that runs
 * past the time limit, or whose client goes away, is stopped by terminating its thread; a fresh
 * one takes its place. Each thread keeps its own copy of the documents and receives every
 * committed change before any later query (message order), so a query sees every write
 * acknowledged before it was asked and no document is copied per query.
 *
 * The editor first, whoever else is asking (security review: 8 anonymous queries that ran to the
 * time limit kept the editor's trivial query waiting 40 s). Work that presents a token (the editor's,
 * or the site's viewer token) waits in a line of its own, served before the anonymous line by every
 * thread, and has threads of its own (`reserved`) that anonymous work never takes: however much
 * anonymous work is running or waiting, the editor's runs on the next thread free of token work.
 * Listener filters (listener.ts) are work like queries, in their listener's line, under a budget of
 * their own.
 */

export type QueryPoolOptions = {
  /** Threads anyone's work may use (default: up to two, as many as the machine has cores). */
  size?: number
  /** More threads, for work that presents a token only (default 1). */
  reserved?: number
  /** How long one query may run once a thread has taken it (default 10 s). */
  timeoutMs?: number
  /** Heap limit of each thread, so one query's memory cannot take the server down (default 512 MB). */
  maxHeapMb?: number
  context: WorkerSetup['context']
  log: (entry: Record<string, unknown>) => void
}

type Work = { kind: 'query'; job: QueryJob } | { kind: 'filter'; job: FilterJob }
type Waiting = {
  work: Work
  /** Presented a token: the first line, and the reserved threads. */
  withToken: boolean
  timeoutMs: number
  resolve: (outcome: QueryOutcome) => void
  reject: (error: Error) => void
  signal?: AbortSignal
  onAbort?: () => void
  timer?: NodeJS.Timeout
}
type Slot = { worker: Worker | null; ready: boolean; reserved: boolean; running: (Waiting & { id: number }) | null }

const WORKER_FILE = new URL('./query-worker.ts', import.meta.url)

export const DEFAULT_QUERY_TIMEOUT_MS = 10_000

export function queryTimeoutError(job: { query: string }, timeoutMs: number, what = 'Query'): ContentLakeError {
  const description = `${what} exceeded the time limit of ${timeoutMs} ms and was stopped: make it cheaper (filter before nesting subqueries)`
  return new ContentLakeError(
    400,
    { error: { description, query: job.query, type: 'queryExecutionError' } },
    description,
  )
}

/** What a job is called in its errors: a query, or a listener's filter. */
const nameOf = (work: Work) => (work.kind === 'filter' ? "The listener's filter" : 'Query')

export class QueryPool {
  private readonly store: DocumentStore
  private readonly slots: Slot[]
  /** The two lines: work with a token is always taken first. */
  private readonly lines: { withToken: Waiting[]; anonymous: Waiting[] } = { withToken: [], anonymous: [] }
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
    const reserved = Math.max(0, options.reserved ?? 1)
    // Reserved threads first: work with a token takes them before the shared ones, left to anonymous work.
    this.slots = Array.from({ length: reserved + size }, (_, index) => ({
      worker: null,
      ready: false,
      reserved: index < reserved,
      running: null,
    }))
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
    return this.enqueue({ kind: 'query', job }, job.authenticated, this.timeoutMs, signal)
  }

  /**
   * Evaluates a listener's filter on each of `job.documents` within `budgetMs` (counted like a
   * query's time); rejects with a 400 ContentLakeError when the filter runs past it.
   */
  async filter(job: FilterJob, budgetMs: number, signal?: AbortSignal): Promise<FilterMatches> {
    const outcome = await this.enqueue({ kind: 'filter', job }, job.authenticated, budgetMs, signal)
    return outcome.result as FilterMatches
  }

  private enqueue(work: Work, withToken: boolean, timeoutMs: number, signal?: AbortSignal): Promise<QueryOutcome> {
    if (this.closed) return Promise.reject(new Error('the query pool is closed'))
    return new Promise<QueryOutcome>((resolve, reject) => {
      const waiting: Waiting = { work, withToken, timeoutMs, resolve, reject, signal }
      if (signal) {
        if (signal.aborted) return reject(new Error('the client went away'))
        waiting.onAbort = () => this.abandon(waiting, new Error('the client went away'))
        signal.addEventListener('abort', waiting.onAbort, { once: true })
      }
      ;(withToken ? this.lines.withToken : this.lines.anonymous).push(waiting)
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.unsubscribe()
    for (const waiting of [...this.lines.withToken.splice(0), ...this.lines.anonymous.splice(0)])
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
        const { query } = running.work.job
        this.options.log({ event: 'query-worker-exit', code, kind: running.work.kind, query: query.slice(0, 200) })
        // Out of memory (the heap limit) or a bug: the query is refused, the server goes on.
        const description = `${nameOf(running.work)} used more memory than the local Content Lake allows`
        this.finish(slot, () =>
          running.reject(
            new ContentLakeError(400, { error: { description, query, type: 'queryExecutionError' } }, description),
          ),
        )
      }
      this.spawn(slot)
    })
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (!slot.ready || !slot.worker || slot.running) continue
      const waiting = this.lines.withToken.shift() ?? (slot.reserved ? undefined : this.lines.anonymous.shift())
      if (!waiting) continue
      const id = ++this.nextId
      const running = { ...waiting, id }
      slot.running = running
      // Its answer may already be waiting behind a busy moment of this thread: the check comes after
      // the messages that arrived meanwhile (setImmediate runs after them), so only work still running
      // is stopped, however late this timer fires.
      running.timer = setTimeout(
        () =>
          setImmediate(() => {
            if (slot.running === running)
              this.abandon(waiting, queryTimeoutError(waiting.work.job, waiting.timeoutMs, nameOf(waiting.work)))
          }),
        waiting.timeoutMs,
      )
      slot.worker.postMessage({ ...waiting.work, id } satisfies WorkerMessage)
    }
  }

  /** Time is up or the client went away: drop the work from its line, or stop the thread running it. */
  private abandon(waiting: Waiting, error: Error) {
    const line = waiting.withToken ? this.lines.withToken : this.lines.anonymous
    const index = line.indexOf(waiting)
    if (index >= 0) {
      line.splice(index, 1)
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
