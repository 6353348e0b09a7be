import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { mayReadCookie, PRERENDER_BYPASS_COOKIE } from '../lib/security/request-cookies.ts'

/*
 * The shapes the response pipeline (response-pipeline.ts) passes to its stages. A stage sees the
 * request as it arrived and one response, and changes that response; it knows nothing of the other
 * stages, nor of how the response is held back or sent (intercept-response.ts).
 */

/**
 * The request as it reached the server, copied before Next.js handles it: Next removes headers from
 * the request while it renders (the RSC ones, for a prerendered page), and a stage that runs after
 * Next must still see what the client asked for.
 */
export type ArrivedRequest = {
  readonly method: string
  /** Origin-form: path and query (http-server.ts has made it so). */
  readonly url: string
  readonly headers: Readonly<IncomingHttpHeaders>
}

/** The request headers Next.js picks an RSC answer by (app-router-headers.js), whatever Vary says. */
export const RSC_REQUEST_HEADERS = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-url',
]

/** Status and headers, by lower-case name, as they are about to go out. */
export type ResponseHead = {
  status: number
  headers: OutgoingHttpHeaders
}

/**
 * A response on its way out. `body` is the whole body when the pipeline held it, or null when the body
 * streams through as it is written (HEAD, 204, 304, or no stage asked for it): the stage then changes
 * headers only.
 */
export type Outgoing = ResponseHead & { body: Buffer | null }

export type Stage = {
  readonly name: string
  /** Whether this stage needs this response's whole body (the pipeline holds it if any stage does). */
  wantsBody(head: ResponseHead, request: ArrivedRequest): boolean
  /** Changes the response in place, before anything of it is sent. */
  apply(response: Outgoing, request: ArrivedRequest): void
}

/** A header's value as one string ('' when absent): lists joined as HTTP joins them. */
export function headerText(headers: OutgoingHttpHeaders | IncomingHttpHeaders, name: string): string {
  const value = headers[name]
  if (value === undefined) return ''
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/** The names a comma-separated header lists, lower-case (Vary, Cache-Control directives). */
export function headerList(headers: OutgoingHttpHeaders, name: string): string[] {
  return headerText(headers, name)
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
}

/**
 * Whether Next.js could read its draft-mode cookie from this request, with any value, by either of its
 * readings (lib/security/request-cookies.ts): its answer may then carry the editors' policy.
 */
export function inDraftMode(request: ArrivedRequest): boolean {
  return mayReadCookie(headerText(request.headers, 'cookie'), PRERENDER_BYPASS_COOKIE)
}
