import { sendJson, type Request, type Response } from '../http-kit.ts'
import type { EventSink } from './event-streams.ts'

/*
 * How many event streams (listeners, live events) the lake keeps open, and how much unsent data
 * each may hold (security review: 600–800 listeners that never read, then one 200 KB publish, took
 * the lake from 476 MB to 803 MB, held after they closed). Any page of a developer's browser can
 * reach the lake, so streams without a token are capped per client address and in all; streams
 * with a token (the editor's Studio, the site's server previewing) have a cap of their own, which
 * anonymous streams never use up. A refused stream gets the hosted API's 429 in its gateway shape,
 * with Retry-After. A client that does not read is closed rather than buffered for: when the next
 * event or keep-alive finds more than `maxBufferedBytes` of its stream unsent, and when anonymous
 * streams together would hold more than `anonymousBufferedBytes` (the streams furthest behind go
 * first). Closing a stream frees what it held; EventSource clients reconnect.
 */

export type StreamLimits = {
  /** Open streams without a token from one client address. */
  perClient: number
  /** Open streams without a token, in all. */
  anonymous: number
  /** Open streams with a token, in all. */
  withToken: number
  /** Unsent bytes one stream may hold when the next chunk comes; past it, the stream is closed. */
  maxBufferedBytes: number
  /** Unsent bytes all anonymous streams together may hold. */
  anonymousBufferedBytes: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perClient: 32,
  anonymous: 128,
  withToken: 256,
  maxBufferedBytes: 1024 * 1024,
  anonymousBufferedBytes: 16 * 1024 * 1024,
}

export class StreamGate {
  private readonly limits: StreamLimits
  private readonly perClient = new Map<string, number>()
  /** The open anonymous streams, whose unsent bytes count against one budget. */
  private readonly anonymous = new Set<Response>()
  private withToken = 0

  constructor(limits: StreamLimits) {
    this.limits = limits
  }

  /** Opens an event stream on `response` and returns its sink, or answers 429 and returns null. */
  open(request: Request, response: Response, cors: Record<string, string>, withToken: boolean): EventSink | null {
    const client = request.socket?.remoteAddress ?? 'unknown'
    const refusal = this.refusal(client, withToken)
    if (refusal) {
      const body = { statusCode: 429, error: 'Too Many Requests', message: refusal }
      sendJson(response, 429, body, { ...cors, 'Retry-After': '10' })
      return null
    }
    if (withToken) this.withToken++
    else {
      this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1)
      this.anonymous.add(response)
    }
    let open = true
    response.once('close', () => {
      open = false
      if (withToken) return void this.withToken--
      this.anonymous.delete(response)
      const left = (this.perClient.get(client) ?? 1) - 1
      if (left > 0) this.perClient.set(client, left)
      else this.perClient.delete(client)
    })
    response.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
    return {
      write: (chunk) => {
        if (!open || response.writableEnded) return
        if (response.writableLength > this.limits.maxBufferedBytes) return this.drop(response)
        if (!withToken && !this.makeRoom(response, chunk.length)) return
        response.write(chunk)
      },
      end: (chunk) => {
        if (open && !response.writableEnded) response.end(chunk)
      },
      onClose: (callback) => response.once('close', callback),
    }
  }

  private refusal(client: string, withToken: boolean): string | null {
    const { limits } = this
    if (withToken)
      return this.withToken >= limits.withToken
        ? `Too many open streams: at most ${limits.withToken} listeners and live-event streams with a token`
        : null
    if ((this.perClient.get(client) ?? 0) >= limits.perClient)
      return `Too many open streams from ${client}: at most ${limits.perClient} listeners and live-event streams without a token per client`
    if (this.anonymous.size >= limits.anonymous)
      return `Too many open streams: at most ${limits.anonymous} listeners and live-event streams without a token`
    return null
  }

  /**
   * Keeps the anonymous streams' unsent bytes, with `bytes` more for `target`, within their budget by
   * closing the streams furthest behind; false when `target` was one of them. A stream with nothing
   * unsent is never closed for the others: one chunk larger than the whole budget still goes out.
   */
  private makeRoom(target: Response, bytes: number): boolean {
    let held = 0
    for (const response of this.anonymous) held += response.writableLength
    while (held + bytes > this.limits.anonymousBufferedBytes) {
      let furthest: Response | undefined
      for (const response of this.anonymous)
        if (response.writableLength > (furthest?.writableLength ?? 0)) furthest = response
      if (!furthest) return true
      held -= furthest.writableLength
      this.drop(furthest)
      if (furthest === target) return false
    }
    return true
  }

  /** Closes a stream whose client does not read: its connection goes, and with it what it held. */
  private drop(response: Response) {
    this.anonymous.delete(response)
    response.destroy()
  }
}
