import type { Response } from '../http-kit.ts'

/*
 * What the two Server-Sent Events endpoints (the listener, listener.ts; live events, live-events.ts)
 * share: a stream's sink, the event format, and the set of open streams, each greeted, kept alive by a
 * comment line (proxies and the client's idle timers would close a quiet stream) and told goodbye when
 * the server shuts down.
 */

export type EventSink = { write: (chunk: string) => void; onClose: (callback: () => void) => void }

/** Starts an event stream on a response and returns its sink. */
export function openEventStream(response: Response, cors: Record<string, string>): EventSink {
  response.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
  return { write: (chunk) => void response.write(chunk), onClose: (callback) => response.on('close', callback) }
}

/** One Server-Sent Event. */
export const serverSentEvent = (event: string, data: unknown, id?: string) =>
  `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`

const KEEPALIVE_MS = 15_000

export class EventStreams<S extends { sink: EventSink }> {
  private readonly open = new Set<S>()
  private readonly keepalive: NodeJS.Timeout

  constructor(keepAliveMs = KEEPALIVE_MS) {
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

  add(stream: S, welcome: string) {
    this.open.add(stream)
    stream.sink.onClose(() => this.open.delete(stream))
    stream.sink.write(welcome)
  }

  /** Sends `farewell` to every stream and forgets them (server shutdown). */
  closeAll(farewell: string) {
    clearInterval(this.keepalive)
    for (const stream of this.open) stream.sink.write(farewell)
    this.open.clear()
  }
}
