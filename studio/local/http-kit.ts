import type { IncomingMessage, ServerResponse } from 'node:http'
import { ContentLakeError } from './content-lake-error.ts'

/**
 * The same handler serves HTTP/1.1 (Node clients) and HTTP/2 over TLS (browsers). HTTP/2 requests
 * come through Node's compatibility API, whose request and response have the members used here
 * (headers, method, url, socket, writeHead, write, end, 'close'): both are typed as HTTP/1.1's.
 */
export type Request = IncomingMessage
export type Response = ServerResponse

export const MAX_JSON_BYTES = 4 * 1024 * 1024
export const MAX_ASSET_BYTES = 50 * 1024 * 1024
/**
 * JSON nested deeper than this is refused (400) before anything walks it: groq-js, structuredClone,
 * JSON.stringify and @sanity/mutator recurse, and 20,000 levels overflow their stack (issue #20).
 * Real documents and parameters stay far below (Portable Text is about ten levels).
 */
export const MAX_JSON_DEPTH = 100

export function header(request: Request, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

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

/** An error in the shape of the Content Lake's gateway errors (`{statusCode, error, message}`). */
export function gatewayError(status: number, error: string, message: string) {
  return new ContentLakeError(status, { statusCode: status, error, message }, message)
}

export async function readBody(request: Request, limit: number, tooLarge = `The request body is larger than ${limit} bytes`): Promise<Buffer> {
  const declared = Number(header(request, 'content-length') ?? 0)
  if (declared > limit) throw gatewayError(413, 'Request Entity Too Large', tooLarge)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw gatewayError(413, 'Request Entity Too Large', tooLarge)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** How deeply a parsed JSON value nests, counted without recursion (the value may be 20,000 deep). */
export function jsonDepth(value: unknown): number {
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

export async function readJson(request: Request, limit = MAX_JSON_BYTES, tooLarge?: string): Promise<unknown> {
  const text = (await readBody(request, limit, tooLarge)).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text) // V8 parses iteratively: any depth parses, the check below refuses it
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON'
    throw new ContentLakeError(400, { error: { description: `Unable to parse the request body as JSON: ${reason}`, type: 'httpBadRequest' } }, reason)
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    const description = `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`
    throw new ContentLakeError(400, { error: { description, type: 'httpBadRequest' } }, description)
  }
  return value
}

export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '')
  return match ? match[1] : null
}
