import type { ServerOptions } from 'node:http'

/*
 * Limits on slow or silent clients, shared by both twins (issue #20: silent sockets and dripped
 * headers stayed open forever). Loopback clients need far less than these.
 */
export type ConnectionTimeouts = {
  /** From connecting to the end of the request headers (a TLS handshake included). */
  headersMs: number
  /** From connecting to the start of the response (Node's requestTimeout). */
  requestMs: number
  /** A connection with no request in progress (HTTP/1.1 keep-alive, an HTTP/2 session with no stream). */
  idleMs: number
}

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = { headersMs: 10_000, requestMs: 30_000, idleMs: 60_000 }

/** Node's HTTP/1.1 server options for these limits. */
export function httpServerLimits(timeouts: ConnectionTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: Math.min(5_000, timeouts.idleMs),
    // How often Node checks the two limits above (its default, 30 s, would let them overrun).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
  }
}

/**
 * How long a socket may pass no byte either way before it is closed: not less than the request limit,
 * as a request waiting for its answer (a query, the database) is silent meanwhile.
 */
export const silentSocketMs = (timeouts: ConnectionTimeouts) => Math.max(timeouts.idleMs, timeouts.requestMs)
