import type { IncomingMessage } from 'node:http'
import { parseJson, readBody, type ParsedJson } from '../http-kit.ts'

/*
 * What Supabase's API gateway does around every request: body limits, CORS, the forwarded client
 * address, the Host check, and JSON bodies (empty ones included). The generic pieces are in ../http-kit.ts.
 */

/** Bodies above this are refused with 413 (a contact message is < 2 KB). */
export const MAX_BODY_BYTES = 256 * 1024

/** The body as text, refused (BodyTooLargeError) past `limit`. */
export async function readBodyText(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBody(request, limit)).toString('utf8')
}

const ALLOWED_HEADERS =
  'apikey, authorization, x-client-info, content-type, accept, accept-profile, content-profile, prefer, range, x-supabase-api-version, x-retry-count, x-region, traceparent, tracestate, baggage'

/** CORS as Supabase's gateway answers it: any origin, the client's headers, Content-Range exposed. */
export function corsHeaders(request: IncomingMessage): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
    'Access-Control-Expose-Headers': 'Content-Range, Content-Location, X-Supabase-Api-Version, Retry-After',
    'Access-Control-Max-Age': '86400',
  }
}

/**
 * Parses a JSON body; an empty body (DELETE, /logout send one with a JSON content type) is null. JSON
 * nested past the twins' shared limit (MAX_JSON_DEPTH in ../http-kit.ts) is refused before parsing:
 * re-serialising it to hand it to Postgres recurses once per level.
 */
export function parseJsonBody(text: string): ParsedJson {
  return text.trim() === '' ? { ok: true, value: null } : parseJson(text)
}

/**
 * Whether a Host header could name a host at all (RFC 3986 reg-name or IP literal, optional port).
 * A gateway refuses the others (e.g. one with a space) with 400 before routing.
 */
export function isValidHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true // HTTP/1.0 clients may omit it
  return /^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)
}

/** The client's address as a gateway would forward it: what came before, then the socket's address. */
export function forwardedFor(request: IncomingMessage): string {
  const previous = request.headers['x-forwarded-for']
  const socketAddress = (request.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '')
  const prior = Array.isArray(previous) ? previous.join(', ') : previous
  return prior ? `${prior}, ${socketAddress}` : socketAddress
}

/**
 * The client's address for per-address limits, read as private.request_client_ip reads it for the
 * contact rate limit: the `trustedHops`-th entry from the right of X-Forwarded-For once the socket's
 * address is appended (1 = the socket itself; a client can prepend entries, never append them).
 */
export function clientAddress(request: IncomingMessage, trustedHops: number): string {
  const entries = forwardedFor(request).split(',')
  if (trustedHops <= 0) return entries.join(',').trim()
  return entries.length < trustedHops ? 'unknown' : entries[entries.length - trustedHops].trim()
}

/** Lower-cased request headers as PostgREST puts them in request.headers (with the forwarded address). */
export function headersForDatabase(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  headers['x-forwarded-for'] = forwardedFor(request)
  return headers
}
