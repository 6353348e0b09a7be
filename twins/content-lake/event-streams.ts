/*
 * What the two Server-Sent Events endpoints (the listener, listener.ts; live events, live-events.ts)
 * share: a stream's sink (opened, counted and bounded by stream-gate.ts), the event format, and the
 * set of open streams, each greeted, kept alive by a comment line (proxies and the client's idle
 * timers would close a quiet stream) and told goodbye when the server shuts down.
 */

export type EventSink = {
  /** Sends a chunk, or closes the stream instead when its client has stopped reading (stream-gate.ts). */
  write: (chunk: string) => void
  /** Sends a last chunk and ends the stream (an error the client is to see). */
  end: (chunk: string) => void
  onClose: (callback: () => void) => void
}

/** One Server-Sent Event. */
export const serverSentEvent = (event: string, data: unknown, id?: string) =>
  `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`

const KEEPALIVE_MS = 15_000

export class EventStreams<S extends { sink: EventSink }> {
  private readonly open = new Set<S>()
  private readonly keepalive: NodeJS.Timeout

  constructor(keepAliveMs = KEEPALIVE_MS) {
    // Each keep-alive is also the moment a client that stopped reading is found out (stream-gate.ts).
    this.keepalive = setInterval(() => {
      for (const stream of this.open) stream.sink.write(':\n\n')
    }, keepAliveMs)
    this.keepalive.unref()
  }

  get size(): number {
    return this.open.size
  }

  /** The open streams, as they are now (one closing meanwhile does not disturb the walk). */
  list(): S[] {
    return [...this.open]
  }

  has(stream: S): boolean {
    return this.open.has(stream)
  }

  add(stream: S, welcome: string) {
    this.open.add(stream)
    stream.sink.onClose(() => this.open.delete(stream))
    stream.sink.write(welcome)
  }

  /** Sends `farewell` and ends one stream (it is forgotten at once). */
  end(stream: S, farewell: string) {
    this.open.delete(stream)
    stream.sink.end(farewell)
  }

  /** Sends `farewell` to every stream and forgets them (server shutdown). */
  closeAll(farewell: string) {
    clearInterval(this.keepalive)
    for (const stream of this.open) stream.sink.write(farewell)
    this.open.clear()
  }
}
