import { ContentLakeError, gatewayError } from '../content-lake-error.ts'
import {
  header,
  isAllowedHost,
  isSameOrigin,
  LOOPBACK_NAMES,
  parseJson,
  readBody,
  send,
  sendJson,
  type Request,
  type Response,
} from '../../http-kit.ts'

/*
 * One request as the routes see it: checked against DNS rebinding and CORS, its API version taken
 * off the path (`/v2025-02-19/data/query/production` → `/data/query/production`), its segments
 * decoded, and answers carrying the request's CORS headers.
 */
export type Exchange = {
  request: Request
  response: Response
  method: string
  url: URL
  /** `1`, `X` or a date; `1` for unversioned paths. */
  apiVersion: string
  /** False for the paths the hosted API serves without a version (the asset CDN's). */
  versioned: boolean
  /** The path without its version prefix. */
  path: string
  segments: string[]
  cors: Record<string, string>
  json: (status: number, value: unknown) => void
}

const VERSION_PREFIX = /^\/v(\d{4}-\d{2}-\d{2}|1|X)(\/.*|$)/

/** Browser origins the Content Lake answers with CORS headers (the site's). */
export function corsHeaders(request: Request, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = header(request, 'origin')
  if (!origin || !allowedOrigins.has(origin)) return {}
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      header(request, 'access-control-request-headers') ?? 'authorization, content-type, x-sanity-app',
    'Access-Control-Expose-Headers': 'X-Sanity-Shard',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  }
}

/**
 * Reads a request into an Exchange, or answers it here (a preflight) and returns null. Throws the
 * gateway's errors for a foreign host or origin, a malformed URL or another project.
 */
export function openExchange(
  request: Request,
  response: Response,
  cors: Record<string, string>,
  projectId: string,
): Exchange | null {
  const method = request.method ?? 'GET'
  const hostHeader = header(request, 'host') ?? header(request, ':authority') ?? ''
  const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase()
  // DNS rebinding (http-kit.ts): a page on another name that resolves to 127.0.0.1 must not reach the API.
  if (!isAllowedHost(hostHeader, { names: [...LOOPBACK_NAMES, `${projectId}.localhost`] })) {
    throw gatewayError(403, 'Forbidden', `Unknown host "${hostname}": the local Content Lake answers on localhost only`)
  }
  const origin = header(request, 'origin')
  if (origin && !cors['Access-Control-Allow-Origin'] && !isSameOrigin(origin, hostHeader)) {
    throw gatewayError(
      403,
      'Forbidden',
      `CORS origin not allowed: ${origin} (start the server with --cors-origin ${origin})`,
    )
  }
  if (method === 'OPTIONS') {
    send(response, 204, null, cors)
    return null
  }

  let url: URL
  try {
    url = new URL(request.url ?? '/', 'http://localhost')
    decodeURIComponent(url.pathname)
  } catch {
    throw gatewayError(400, 'Bad Request', 'Malformed request URL')
  }
  const versioned = VERSION_PREFIX.exec(url.pathname)
  const path = versioned ? versioned[2] || '/' : url.pathname
  const requestedProject =
    /^([a-z0-9-]+)\.localhost$/.exec(hostname)?.[1] ?? header(request, 'x-sanity-project-id') ?? projectId
  if (requestedProject !== projectId)
    throw gatewayError(
      404,
      'Not Found',
      `Project "${requestedProject}" not found: the local Content Lake serves project "${projectId}"`,
    )
  return {
    request,
    response,
    method,
    url,
    apiVersion: versioned?.[1] ?? '1',
    versioned: versioned !== null,
    path,
    segments: path
      .split('/')
      .filter(Boolean)
      .map((segment) => decodeURIComponent(segment)),
    cors,
    json: (status, value) => sendJson(response, status, value, cors),
  }
}

/** The largest JSON body an endpoint reads unless it names its own limit (the query endpoint does). */
export const MAX_JSON_BYTES = 4 * 1024 * 1024

/**
 * A request's JSON body, or the Content Lake's 400 for one that does not parse or nests deeper than
 * the shared limit (MAX_JSON_DEPTH in ../../http-kit.ts). A body over `limit` throws the kit's
 * BodyTooLargeError, answered 413 in the gateway's shape by start-content-lake.ts.
 */
export async function readJson(request: Request, limit = MAX_JSON_BYTES, tooLarge?: string): Promise<unknown> {
  const parsed = parseJson((await readBody(request, limit, { tooLarge })).toString('utf8'))
  if (parsed.ok) return parsed.value
  const description = parsed.tooDeep ? parsed.message : `Unable to parse the request body as JSON: ${parsed.message}`
  throw new ContentLakeError(400, { error: { description, type: 'httpBadRequest' } }, description)
}
