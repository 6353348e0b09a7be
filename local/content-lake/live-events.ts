import { createHash } from 'node:crypto'
import type { CommittedTransaction, DocumentStore } from './document-store.ts'
import type { EventSink } from './listener.ts'

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

const KEEPALIVE_MS = 15_000

/** The dataset's one sync tag, stable across restarts (`s1:` like the hosted API's). */
export function datasetSyncTag(projectId: string, dataset: string): string {
  return `s1:${createHash('sha256').update(`${projectId}/${dataset}`).digest('base64url').slice(0, 6)}`
}

export class LiveEventHub {
  private readonly subscribers = new Set<Subscriber>()
  private readonly unsubscribe: () => void
  private readonly keepalive: NodeJS.Timeout
  private readonly tag: string

  constructor(store: DocumentStore, tag: string, keepAliveMs = KEEPALIVE_MS) {
    this.tag = tag
    this.unsubscribe = store.subscribe((transaction) => this.broadcast(transaction))
    this.keepalive = setInterval(() => {
      for (const subscriber of this.subscribers) subscriber.sink.write(':\n\n')
    }, keepAliveMs)
    this.keepalive.unref()
  }

  get size(): number {
    return this.subscribers.size
  }

  open(options: LiveOptions, sink: EventSink) {
    const subscriber: Subscriber = { ...options, sink }
    this.subscribers.add(subscriber)
    sink.onClose(() => this.subscribers.delete(subscriber))
    sink.write('event: welcome\ndata: {}\n\n')
  }

  /** Sends `goaway` and closes every stream (server shutdown); clients fall back to polling. */
  closeAll() {
    clearInterval(this.keepalive)
    this.unsubscribe()
    for (const subscriber of this.subscribers) subscriber.sink.write(`event: goaway\ndata: ${JSON.stringify({ reason: 'The server is shutting down' })}\n\n`)
    this.subscribers.clear()
  }

  private broadcast(transaction: CommittedTransaction) {
    const published = transaction.changes.some((change) => !change.id.includes('.'))
    const data = JSON.stringify({ tags: [this.tag] })
    for (const subscriber of this.subscribers) {
      if (!published && !subscriber.includeDrafts) continue
      subscriber.sink.write(`event: message\nid: ${transaction.id}\ndata: ${data}\n\n`)
    }
  }
}
