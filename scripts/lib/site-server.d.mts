// Types for site-server.mjs (plain JavaScript so the npm scripts run without a TypeScript step).
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

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
export const SITE_TIMEOUTS: SiteTimeouts
export function createSiteServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options?: { badRequestHeaders?: Record<string, string>; timeouts?: Partial<SiteTimeouts> },
): Server
