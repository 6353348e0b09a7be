import type { IncomingMessage, ServerResponse } from 'node:http'

/*
 * What both twins do with a Node request and response: read a bounded body, read a header or a bearer
 * token, send a body or JSON. Each twin adds its own wire shapes on top (content-lake/http-kit.ts:
 * the Content Lake's gateway errors; supabase/gateway.ts: Supabase's CORS, forwarded addresses, JSON).
 */

/**
 * The Content Lake serves HTTP/1.1 (Node clients) and HTTP/2 over TLS (browsers) with one handler.
 * HTTP/2 requests come through Node's compatibility API, whose request and response have the members
 * used here (headers, method, url, socket, writeHead, write, end, 'close'): both are typed as HTTP/1.1's.
 */
export type Request = IncomingMessage
export type Response = ServerResponse

/** A body larger than the reader's limit (declared or streamed); each twin answers it with its 413. */
export class BodyTooLargeError extends Error {
  readonly limit: number
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes`)
    this.limit = limit
  }
}

export function header(request: Request, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** The body, refused as soon as its declared or streamed size passes `limit` (nothing more is buffered). */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(header(request, 'content-length') ?? 0)
  if (declared > limit) throw new BodyTooLargeError(limit)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLargeError(limit)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** A body is JSON unless the caller names its type (in any case, as a function's Response may). */
export function send(response: Response, status: number, body: string | Buffer | null, headers: Record<string, string> = {}) {
  if (response.headersSent) return
  const finalHeaders: Record<string, string> = { ...headers }
  if (body !== null && !Object.keys(finalHeaders).some((key) => key.toLowerCase() === 'content-type')) {
    finalHeaders['Content-Type'] = 'application/json; charset=utf-8'
  }
  response.writeHead(status, finalHeaders)
  response.end(body ?? undefined)
}

export function sendJson(response: Response, status: number, value: unknown, headers: Record<string, string> = {}) {
  send(response, status, JSON.stringify(value), headers)
}

/** The token of `Authorization: Bearer <token>`; null without one. Anything after "Bearer " counts, so a
 *  malformed token is refused by the caller's check rather than taken for no token at all. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization') ?? '')
  return match?.[1].trim() || null
}
