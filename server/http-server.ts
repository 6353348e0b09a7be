import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { NON_DOCUMENT_POLICY, securityHeaders } from '../lib/security/security-headers.ts'
import { BAD_ADDRESS_TEXT, malformedRequestTarget, originForm } from './target-form.ts'

/**
 * How long the site waits on a client, in ms. A client that opens connections and sends nothing, or
 * its headers or body a byte at a time, would otherwise hold a socket (and its memory) for good.
 * Generous for people: a page's request is a few headers, the contact form's a few kilobytes.
 */
export type SiteTimeouts = {
  /** Until a request's headers have all arrived. */
  headersTimeout: number
  /** Until a whole request (headers and body) has arrived. */
  requestTimeout: number
  /** How long an idle kept-alive connection waits for its next request. */
  keepAliveTimeout: number
  /** A socket on which nothing at all moves for this long is closed. */
  idleTimeout: number
}

export const SITE_TIMEOUTS: SiteTimeouts = {
  headersTimeout: 20_000,
  requestTimeout: 60_000,
  // Above the 60 s idle timeout of common load balancers and CDN origins: a proxy must never reuse a
  // connection at the moment the site closes it (its client then gets a 502). Node's default, 5 s, hit
  // the same race with the browser tests' own HTTP client on a busy machine (ECONNRESET).
  keepAliveTimeout: 65_000,
  // Longer than any render; the draft-mode live stream sends a keep-alive well within it.
  idleTimeout: 120_000,
}

/**
 * The policy of the server's own 400 answer. It is plain text that loads nothing and that nobody needs
 * to frame, so it needs none of the site's sources: nothing at all is allowed, which also keeps the
 * server free of any knowledge of which services the site talks to.
 */
export const BAD_REQUEST_POLICY = NON_DOCUMENT_POLICY

/** The headers of that answer: the site's security headers, as on every other response. */
export const BAD_REQUEST_HEADERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(securityHeaders.map(({ key, value }) => [key, value])),
  'Content-Security-Policy': BAD_REQUEST_POLICY,
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'no-store',
}

export type SiteHandler = (request: IncomingMessage, response: ServerResponse) => void

/**
 * The HTTP server of server/main.ts, around any request handler: request targets Next.js cannot route
 * get 400 (see target-form.ts), an absolute-form target reaches the handler as its path and query, and
 * silent or slow clients are cut off (SITE_TIMEOUTS; tests pass small ones).
 */
export function createSiteServer(
  handler: SiteHandler,
  { timeouts = {} }: { timeouts?: Partial<SiteTimeouts> } = {},
): Server {
  const { headersTimeout, requestTimeout, keepAliveTimeout, idleTimeout } = { ...SITE_TIMEOUTS, ...timeouts }
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout,
      // Node checks the first two on this period (30 s by default): a fraction of the shorter one.
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(30_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4)),
      ),
    },
    (request, response) => {
      const target = request.url ?? ''
      const problem = malformedRequestTarget(target)
      if (problem) {
        // The site's language first: a visitor who followed a broken link reads it too.
        const body = `${BAD_ADDRESS_TEXT}\nBad Request: ${problem}\n`
        response.writeHead(400, { ...BAD_REQUEST_HEADERS, 'Content-Length': Buffer.byteLength(body) })
        response.end(body)
        return
      }
      request.url = originForm(target)
      handler(request, response)
    },
  )
  // A socket on which nothing moves either way for this long is destroyed (no 'timeout' listener).
  server.timeout = idleTimeout
  return server
}
