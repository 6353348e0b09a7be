import { randomUUID } from 'node:crypto'
import { evaluate, type ExprNode } from 'groq-js'
import type { CommittedTransaction, DocumentChange, DocumentStore, SanityDocument } from './document-store.ts'
import { EventStreams, serverSentEvent, type EventSink } from './event-streams.ts'
import { parseQuery, visibleTo } from './query.ts'

/*
 * The listener (`GET /data/listen/<dataset>?query=…`, Server-Sent Events) as @sanity/client and the
 * Studio read it: a `welcome` first, then one `mutation` event per document a transaction changed
 * that matches the listener's filter before or after the change. Each event carries the whole new
 * document as a `createOrReplace` (or a `delete`) and, when asked for with effectFormat=mendoza,
 * whole-value mendoza effects: the Studio's document buffer and preview store apply both as they
 * would apply the Content Lake's finer-grained ones, chained by previousRev → resultRev.
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

type Listener = ListenOptions & { tree: ExprNode; sink: EventSink; visible: (doc: SanityDocument) => boolean }

/** Whole-value mendoza patch: opcode 0 (Value) followed by the value. */
const wholeValue = (value: SanityDocument | null) => [0, value]

export class ListenerHub {
  private readonly streams: EventStreams<Listener>
  private readonly unsubscribe: () => void
  private readonly context: { projectId: string; dataset: string }
  /** Transactions are broadcast one after the other, so every stream sees them in commit order. */
  private queue: Promise<void> = Promise.resolve()

  constructor(store: DocumentStore, context: { projectId: string; dataset: string }, keepAliveMs?: number) {
    this.context = context
    this.streams = new EventStreams(keepAliveMs)
    this.unsubscribe = store.subscribe((transaction) => {
      this.queue = this.queue.then(() => this.broadcast(transaction))
    })
  }

  get size(): number {
    return this.streams.size
  }

  /** Validates the filter (throws a 400 ContentLakeError) before the stream opens. */
  prepare(options: ListenOptions): ExprNode {
    return parseQuery(options.query, options.params)
  }

  open(options: ListenOptions, tree: ExprNode, sink: EventSink) {
    this.streams.add(
      { ...options, tree, sink, visible: visibleTo(options.authenticated) },
      serverSentEvent('welcome', { listenerName: randomUUID() }),
    )
  }

  /** Sends `disconnect` and closes every stream (server shutdown). */
  closeAll() {
    this.unsubscribe()
    this.streams.closeAll(serverSentEvent('disconnect', { reason: 'The server is shutting down' }))
  }

  private async matches(listener: Listener, doc: SanityDocument | null): Promise<boolean> {
    if (!doc || !listener.visible(doc)) return false
    if (!listener.includeAllVersions && doc._id.startsWith('versions.')) return false
    const value = await evaluate(listener.tree, { dataset: [doc], params: listener.params, sanity: this.context })
    const result = await value.get()
    return Array.isArray(result) ? result.length > 0 : Boolean(result)
  }

  private async broadcast(transaction: CommittedTransaction) {
    for (const listener of this.streams.list()) {
      const events: { change: DocumentChange; transition: 'update' | 'appear' | 'disappear' }[] = []
      for (const change of transaction.changes) {
        let before: boolean
        let after: boolean
        try {
          before = await this.matches(listener, change.before)
          after = await this.matches(listener, change.after)
        } catch {
          continue // a filter that cannot evaluate a document does not match it
        }
        if (before || after)
          events.push({ change, transition: before && after ? 'update' : after ? 'appear' : 'disappear' })
      }
      events.forEach(({ change, transition }, index) => {
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
          transactionTotalEvents: events.length,
          transactionCurrentEvent: index + 1,
        }
        if (listener.includeMutations) {
          event.mutations = [change.after ? { createOrReplace: change.after } : { delete: { id: change.id } }]
        }
        if (listener.includeResult && change.after) event.result = change.after
        if (listener.includePreviousRevision && change.before) event.previous = change.before
        if (listener.effectFormat === 'mendoza')
          event.effects = { apply: wholeValue(change.after), revert: wholeValue(change.before) }
        listener.sink.write(serverSentEvent('mutation', event, event.eventId as string))
      })
    }
  }
}
