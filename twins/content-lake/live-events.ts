import { createHash } from 'node:crypto'
import type { CommittedTransaction, DocumentStore } from './document-store.ts'
import { EventStreams, serverSentEvent, type EventSink } from './event-streams.ts'

/*
 * The Live Content API (`GET /data/live/events/<dataset>`, Server-Sent Events) as @sanity/client's
 * `client.live.events()` and next-sanity's <SanityLive> read it: a `welcome`, then a `message`
 * carrying sync tags whenever content those tags cover changes; the client refreshes what it showed.
 * `includeDrafts=true` (editor token only) also reports changes to drafts and versions.
 *
 * The hosted API gives each query result fine-grained sync tags; the local one has one tag for the
 * whole dataset (answered in every query's `syncTags` too): any change refreshes every query, which
 * is what a preview wants and costs nothing at this size.
 */

export type LiveOptions = { includeDrafts: boolean }

type Subscriber = LiveOptions & { sink: EventSink }

/** The dataset's one sync tag, stable across restarts (`s1:` like the hosted API's). */
export function datasetSyncTag(projectId: string, dataset: string): string {
  return `s1:${createHash('sha256').update(`${projectId}/${dataset}`).digest('base64url').slice(0, 6)}`
}

export class LiveEventHub {
  private readonly streams: EventStreams<Subscriber>
  private readonly unsubscribe: () => void
  private readonly tag: string

  constructor(store: DocumentStore, tag: string, keepAliveMs?: number) {
    this.tag = tag
    this.streams = new EventStreams(keepAliveMs)
    this.unsubscribe = store.subscribe((transaction) => this.broadcast(transaction))
  }

  get size(): number {
    return this.streams.size
  }

  open(options: LiveOptions, sink: EventSink) {
    this.streams.add({ ...options, sink }, serverSentEvent('welcome', {}))
  }

  /** Sends `goaway` and closes every stream (server shutdown); clients fall back to polling. */
  closeAll() {
    this.unsubscribe()
    this.streams.closeAll(serverSentEvent('goaway', { reason: 'The server is shutting down' }))
  }

  private broadcast(transaction: CommittedTransaction) {
    const published = transaction.changes.some((change) => !change.id.includes('.'))
    const message = serverSentEvent('message', { tags: [this.tag] }, transaction.id)
    for (const subscriber of this.streams.list()) {
      if (published || subscriber.includeDrafts) subscriber.sink.write(message)
    }
  }
}
