import { createServer } from 'node:http'
import { malformedRequestTarget, originForm } from './request-target.mjs'

/**
 * How long the site waits on a client, in ms. A client that opens connections and sends nothing, or
 * its headers or body a byte at a time, would otherwise hold a socket (and its memory) for good.
 * Generous for people: a page's request is a few headers, the contact form's a few kilobytes.
 */
export const SITE_TIMEOUTS = {
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
 * The HTTP server of serve-site.mjs, around any request handler: request targets Next.js cannot route
 * get 400 with `badRequestHeaders` (see request-target.mjs), an absolute-form target reaches the
 * handler as its path and query, and silent or slow clients are cut off (SITE_TIMEOUTS; tests pass
 * small ones).
 */
export function createSiteServer(handler, { badRequestHeaders = {}, timeouts = {} } = {}) {
  const { headersTimeout, requestTimeout, keepAliveTimeout, idleTimeout } = { ...SITE_TIMEOUTS, ...timeouts }
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout,
      // Node checks the first two on this period (30 s by default): a fraction of the shorter one.
      connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
    },
    (request, response) => {
      const problem = malformedRequestTarget(request.url)
      if (problem) {
        response.writeHead(400, badRequestHeaders)
        response.end(`Bad Request: ${problem}\n`)
        return
      }
      request.url = originForm(request.url)
      handler(request, response)
    },
  )
  // A socket on which nothing moves either way for this long is destroyed (no 'timeout' listener).
  server.timeout = idleTimeout
  return server
}
