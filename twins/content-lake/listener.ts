import { randomUUID } from 'node:crypto'
import { ContentLakeError } from './content-lake-error.ts'
import type { CommittedTransaction, DocumentChange, DocumentStore, SanityDocument } from './document-store.ts'
import { EventStreams, serverSentEvent, type EventSink } from './event-streams.ts'
import { parseQuery, visibleTo } from './query.ts'
import type { QueryPool } from './query-pool.ts'

/*
 * The listener (`GET /data/listen/<dataset>?query=…`, Server-Sent Events) as @sanity/client and the
 * Studio read it: a `welcome` first, then one `mutation` event per document a transaction changed
 * that matches the listener's filter before or after the change. Each event carries the whole new
 * document as a `createOrReplace` (or a `delete`) and, when asked for with effectFormat=mendoza,
 * whole-value mendoza effects: the Studio's document buffer and preview store apply both as they
 * would apply the Content Lake's finer-grained ones, chained by previousRev → resultRev.
 *
 * Filters are evaluated on the query threads (query-pool.ts), in their listener's line (a token's
 * first), never on the request thread (security review: 12 anonymous listeners whose filter cost a
 * third of a second per document held the editor's next query for 15 s). Each filter gets a budget
 * per transaction, an anonymous one a tight one (a listener with a token, the Studio's, gets a
 * query's time: it is trusted with queries already, and a busy machine must not close it); one that
 * runs past it is stopped, and its listener gets a `channelError` and is closed, as the hosted API
 * ends a listener whose query it will not run. Each listener waits for its own filter only: a slow
 * one delays no other stream.
 */

export type ListenOptions = {
  query: string
  params: Record<string, unknown>
  authenticated: boolean
  includeResult: boolean
  includePreviousRevision: boolean
  includeMutations: boolean
  includeAllVersions: boolean
  effectFormat: string | null
}

type Listener = ListenOptions & {
  sink: EventSink
  visible: (doc: SanityDocument) => boolean
  /** Its transactions, delivered one after the other in commit order. */
  chain: Promise<void>
  /** Transactions waiting in its chain. */
  backlog: number
  /** Aborted when the stream closes: its filter work leaves the query threads. */
  gone: AbortController
}

/** The longest filter and parameters a listener takes: what @sanity/client itself sends at most (a 14,800-character URL). */
export const MAX_LISTEN_QUERY_CHARS = 14_800
/** An anonymous filter's time per document it is evaluated on, and at least per transaction (a cheap filter takes microseconds). */
const FILTER_MS_PER_DOCUMENT = 100
const MIN_FILTER_BUDGET_MS = 500
/** Transactions a listener may have waiting for its filter before it is closed as fallen behind. */
const MAX_BACKLOG = 100

/** Whole-value mendoza patch: opcode 0 (Value) followed by the value. */
const wholeValue = (value: SanityDocument | null) => [0, value]

type Transition = 'update' | 'appear' | 'disappear'

export class ListenerHub {
  private readonly streams: EventStreams<Listener>
  private readonly unsubscribe: () => void
  private readonly queries: QueryPool
  private readonly maxBudgetMs: number
  /**
   * Each event's text, made once per transaction for every listener that asked for the same fields:
   * a 200 KB document sent to a hundred listeners is one string in memory, not a hundred.
   */
  private readonly texts = new WeakMap<CommittedTransaction, Map<string, string>>()

  constructor(store: DocumentStore, queries: QueryPool, maxBudgetMs: number, keepAliveMs?: number) {
    this.queries = queries
    this.maxBudgetMs = maxBudgetMs
    this.streams = new EventStreams(keepAliveMs)
    this.unsubscribe = store.subscribe((transaction) => {
      for (const listener of this.streams.list()) this.enqueue(listener, transaction)
    })
  }

  get size(): number {
    return this.streams.size
  }

  /** Validates the filter (throws a 400 ContentLakeError, or 414 when too long) before the stream opens. */
  prepare(options: ListenOptions): void {
    const chars = options.query.length + JSON.stringify(options.params).length
    if (chars > MAX_LISTEN_QUERY_CHARS) {
      const message = `Query too large for listener: the filter and its parameters are ${chars} characters, over ${MAX_LISTEN_QUERY_CHARS}`
      throw new ContentLakeError(414, { statusCode: 414, error: 'URI Too Long', message }, message)
    }
    parseQuery(options.query, options.params)
  }

  open(options: ListenOptions, sink: EventSink) {
    const listener: Listener = {
      ...options,
      sink,
      visible: visibleTo(options.authenticated),
      chain: Promise.resolve(),
      backlog: 0,
      gone: new AbortController(),
    }
    sink.onClose(() => listener.gone.abort())
    this.streams.add(listener, serverSentEvent('welcome', { listenerName: randomUUID() }))
  }

  /** Sends `disconnect` and closes every stream (server shutdown). */
  closeAll() {
    this.unsubscribe()
    this.streams.closeAll(serverSentEvent('disconnect', { reason: 'The server is shutting down' }))
  }

  private enqueue(listener: Listener, transaction: CommittedTransaction) {
    if (listener.backlog >= MAX_BACKLOG)
      return this.fail(listener, `The listener fell ${MAX_BACKLOG} transactions behind and was closed`)
    listener.backlog++
    listener.chain = listener.chain
      .then(() => this.deliver(listener, transaction))
      .catch(() => this.fail(listener, 'The listener failed on a transaction and was closed', 'internalError'))
      .finally(() => listener.backlog--)
  }

  /** Ends a listener with the hosted API's `channelError` (data `{error: {description, type}}`). */
  private fail(listener: Listener, description: string, type = 'queryExecutionError') {
    if (!this.streams.has(listener)) return
    listener.gone.abort()
    this.streams.end(listener, serverSentEvent('channelError', { error: { description, type } }))
  }

  /** The document as this listener may see it, or null when it cannot match whatever the filter. */
  private candidate(listener: Listener, doc: SanityDocument | null): SanityDocument | null {
    if (!doc || !listener.visible(doc)) return null
    if (!listener.includeAllVersions && doc._id.startsWith('versions.')) return null
    return doc
  }

  private async deliver(listener: Listener, transaction: CommittedTransaction) {
    if (!this.streams.has(listener)) return
    const candidates = transaction.changes.flatMap((change) => [
      this.candidate(listener, change.before),
      this.candidate(listener, change.after),
    ])
    const documents = candidates.filter((doc): doc is SanityDocument => doc !== null)
    if (documents.length === 0) return
    let matches: (boolean | null)[]
    try {
      const budgetMs = listener.authenticated
        ? this.maxBudgetMs
        : Math.min(this.maxBudgetMs, Math.max(MIN_FILTER_BUDGET_MS, FILTER_MS_PER_DOCUMENT * documents.length))
      matches = await this.queries.filter(
        { query: listener.query, params: listener.params, authenticated: listener.authenticated, documents },
        budgetMs,
        listener.gone.signal,
      )
    } catch (error) {
      // The filter's own fault (time, memory): the listener is told and closed. Otherwise its client
      // went away or the server is stopping: nothing to tell.
      if (error instanceof ContentLakeError) this.fail(listener, error.message)
      return
    }
    let next = 0
    const matched = candidates.map((doc) => (doc ? matches[next++] : false))
    const events: { change: DocumentChange; transition: Transition }[] = []
    transaction.changes.forEach((change, index) => {
      const [before, after] = [matched[2 * index], matched[2 * index + 1]]
      if (before === null || after === null) return // a filter that cannot evaluate a document does not match it
      if (before || after)
        events.push({ change, transition: before && after ? 'update' : after ? 'appear' : 'disappear' })
    })
    events.forEach(({ change, transition }, index) =>
      listener.sink.write(this.eventText(listener, transaction, change, transition, index, events.length)),
    )
  }

  private eventText(
    listener: Listener,
    transaction: CommittedTransaction,
    change: DocumentChange,
    transition: Transition,
    index: number,
    total: number,
  ): string {
    const { includeMutations, includeResult, includePreviousRevision, effectFormat } = listener
    const key = JSON.stringify([
      change.id,
      transition,
      index,
      total,
      includeMutations,
      includeResult,
      includePreviousRevision,
      effectFormat === 'mendoza',
    ])
    let texts = this.texts.get(transaction)
    if (!texts) this.texts.set(transaction, (texts = new Map()))
    const known = texts.get(key)
    if (known) return known
    const event: Record<string, unknown> = {
      eventId: `${transaction.id}#${change.id}`,
      documentId: change.id,
      transactionId: transaction.id,
      identity: transaction.identity,
      previousRev: change.before?._rev,
      resultRev: change.after?._rev ?? transaction.id,
      timestamp: transaction.timestamp,
      transition,
      visibility: 'query',
      transactionTotalEvents: total,
      transactionCurrentEvent: index + 1,
    }
    if (includeMutations) {
      event.mutations = [change.after ? { createOrReplace: change.after } : { delete: { id: change.id } }]
    }
    if (includeResult && change.after) event.result = change.after
    if (includePreviousRevision && change.before) event.previous = change.before
    if (effectFormat === 'mendoza')
      event.effects = { apply: wholeValue(change.after), revert: wholeValue(change.before) }
    const text = serverSentEvent('mutation', event, event.eventId as string)
    texts.set(key, text)
    return text
  }
}
