import type { IncomingMessage, ServerResponse } from 'node:http'

/*
 * What the twins do with a Node request and response: read a bounded body, read a header or a bearer
 * token, send a body or JSON, parse JSON no deeper than both twins can safely handle, and tell a
 * request to this machine from a DNS-rebinding page's (the Host and Origin checks). Each twin
 * answers the errors in its own wire shapes (content-lake/content-lake-error.ts: the Content Lake's
 * gateway errors; supabase/gateway.ts and start-local-supabase.ts: Supabase's).
 */

/**
 * The Content Lake serves HTTP/1.1 (Node clients) and HTTP/2 over TLS (browsers) with one handler.
 * HTTP/2 requests come through Node's compatibility API, whose request and response have the members
 * used here (headers, method, url, socket, writeHead, write, end, 'close'): both are typed as HTTP/1.1's.
 */
export type Request = IncomingMessage
export type Response = ServerResponse

/**
 * A body larger than the reader's limit (declared or streamed). Each twin answers it with its 413 in
 * its own shape; `message` is the text that answer carries (the limit the client ran into).
 */
export class BodyTooLargeError extends Error {
  readonly limit: number
  constructor(limit: number, message = `The request body is larger than ${limit} bytes`) {
    super(message)
    this.limit = limit
  }
}

export function header(request: Request, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * The body, refused with a BodyTooLargeError as soon as its declared or streamed size passes `limit`
 * (nothing more is buffered). `tooLarge` names the limit in that error's message when the endpoint has
 * a documented one (the Content Lake's query size, for instance).
 */
export async function readBody(
  request: Request,
  limit: number,
  { tooLarge }: { tooLarge?: string } = {},
): Promise<Buffer> {
  const declared = Number(header(request, 'content-length') ?? 0)
  if (declared > limit) throw new BodyTooLargeError(limit, tooLarge)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLargeError(limit, tooLarge)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** A body is JSON unless the caller names its type (in any case, as a function's Response may). */
export function send(
  response: Response,
  status: number,
  body: string | Buffer | null,
  headers: Record<string, string> = {},
) {
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

/**
 * JSON nested deeper than this is refused by both twins (400 from the Content Lake and the auth API,
 * 413 "stack depth" from the REST API) before anything walks it. What they hand the values to recurses
 * once or more per level: groq-js (several frames per level, some of them async), @sanity/mutator,
 * structuredClone, mendoza diffs, JSON.stringify on the way to Postgres; 20,000 levels overflowed their
 * stack. 100 is the lower of the two limits the twins had (the Content Lake's 100, the Supabase twin's
 * 512): it keeps a wide margin under every one of those stacks, and is ten times the deepest real
 * value (a Portable Text document is about ten levels, a contact message two, user metadata one or
 * two). Hosted services accept deeper JSON (Postgres up to its stack depth); no client of these twins
 * sends any.
 */
export const MAX_JSON_DEPTH = 100

/** The deepest nesting of [ and { in a JSON text, outside strings: one pass, no recursion, no parsing. */
export function jsonTextDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c)
        i++ // backslash: skip the escaped character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (char === 0x5d || char === 0x7d) depth--
  }
  return deepest
}

/**
 * How deeply an already parsed value nests (objects and arrays count, as in jsonTextDepth), counted
 * without recursion and given up past MAX_JSON_DEPTH (the value may be 20,000 deep).
 */
export function jsonValueDepth(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > MAX_JSON_DEPTH) return deepest // no need to walk the rest
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; message: string }

/** Parses JSON text, refusing it unparsed when it nests deeper than MAX_JSON_DEPTH; never throws. */
export function parseJson(text: string): ParsedJson {
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) {
    return { ok: false, tooDeep: true, message: `The JSON is nested deeper than ${MAX_JSON_DEPTH} levels` }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, tooDeep: false, message: error instanceof Error ? error.message : 'Invalid JSON' }
  }
}

/**
 * The names of this machine a twin answers to. DNS rebinding: a page on a name of its own
 * (evil.example) can have that name resolve to 127.0.0.1; its requests to a twin are then same-origin
 * for the browser, so CORS stops nothing and the page reads the answers. They still carry the page's
 * name in Host, which is how every twin tells them apart (`isAllowedHost`).
 */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** A Host header's name (lower-cased; an IPv6 literal keeps its brackets) and port (null when it names
 *  none); null for a header that names no host. */
export function parseHost(host: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/i.exec(host)
  if (!match) return null
  return { name: match[1].toLowerCase(), port: match[2] === undefined ? null : Number(match[2]) }
}

/**
 * Whether a request's Host names this server: one of `names` (the loopback ones unless the twin has
 * more, like the Content Lake's `<project>.localhost`) and, when `port` is given, that port. A Host
 * without a port names 80, the port of plain HTTP, which is what the twins that pass one serve. A
 * request without Host is refused too: browsers always send one, and no client of the twins omits it.
 */
export function isAllowedHost(
  host: string | undefined,
  { names = LOOPBACK_NAMES, port }: { names?: readonly string[]; port?: number } = {},
): boolean {
  const parsed = host === undefined ? null : parseHost(host)
  if (!parsed || !names.includes(parsed.name)) return false
  return port === undefined || (parsed.port ?? 80) === port
}

/** Whether an Origin header is the origin of the page at the Host the request names (a same-origin
 *  request), with one of `schemes`. */
export function isSameOrigin(origin: string, host: string, schemes: readonly string[] = ['http', 'https']): boolean {
  const given = origin.toLowerCase()
  return schemes.some((scheme) => given === `${scheme}://${host.toLowerCase()}`)
}

/**
 * Whether a request's Origin is a page of this machine (http or https on a loopback name, any port), or
 * it has none (Node, curl, a database's HTTP client). A page of any other site the developer opens is
 * refused: a twin's keys are public demo values, so CORS alone would let that page read and change it.
 */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true
  const match = /^https?:\/\/(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::\d{1,5})?$/i.exec(origin)
  return match !== null && LOOPBACK_NAMES.includes(match[1].toLowerCase())
}
