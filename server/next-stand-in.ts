import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { negotiateEncoding } from './compression-stage.ts'
import { PUBLISHED_EVENT, type ResponsePipeline } from './response-pipeline.ts'
import { RSC_REQUEST_HEADERS } from './stage.ts'

/* For the memory cache's tests (memory-cache.test.ts, miss-coalescer.test.ts): a server running a
 * test's pipeline in front of a stand-in for Next.js that counts what it renders and, like Next.js
 * rendering a prerendered page, removes the RSC headers from the request while it answers. The
 * stand-in can hold answers back (hold()), and says when a request reached it (until()). Each test
 * file starts its own (startNextStandIn()), from counts at zero. */

export let rendered = 0
let version = 'one'
/** Renders by path, and the requests that reached the server by path. */
export const renders = new Map<string, number>()
export const arrivals = new Map<string, number>()
const count = (counts: Map<string, number>, path: string) => counts.set(path, (counts.get(path) ?? 0) + 1)
/** Paths whose answers the stand-in holds back until released. */
const holds = new Map<string, Promise<void>>()
/** Called whenever a request reaches the server or the stand-in (tests wait on counts). */
let onEvent = () => {}
/** The server's origin, once started. */
export let base = ''
/** Where the stand-in says a publish made tags stale, as Next's cache handler says it on the process. */
export const publishes = new EventEmitter()

/** Holds the stand-in's answers for `path` until the returned function is called. */
export function hold(path: string): () => void {
  let release = () => {}
  holds.set(path, new Promise<void>((resolve) => (release = resolve)))
  return () => {
    holds.delete(path)
    release()
  }
}

/** Resolves once `check` holds, checked whenever a request arrives anywhere. */
export function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const previous = onEvent
    const test = () => (check() ? ((onEvent = previous), resolve()) : undefined)
    onEvent = () => {
      previous()
      test()
    }
    test()
  })
}

function nextLike(request: IncomingMessage, response: ServerResponse) {
  rendered++
  const url = new URL(request.url ?? '/', 'http://x')
  count(renders, url.pathname)
  onEvent()
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    // The revalidation route makes tags stale, and answers 200, only for a signed request (here:
    // without `x-answer`); the cache handler says so on the process as it does.
    const status = Number(request.headers['x-answer'] ?? 200)
    if (url.pathname === '/api/revalidate' && status === 200) {
      version = 'two'
      publishes.emit(PUBLISHED_EVENT, ['page'])
    }
    const held = holds.get(url.pathname)
    const answer = () => {
      response.statusCode = status
      response.setHeader('Content-Type', 'application/json')
      response.end(Buffer.from('{"revalidated":true}'))
    }
    return held ? void held.then(answer) : answer()
  }
  // A legacy middleware prefetch of a page that is not static: Next.js answers an empty {} nobody may
  // keep (base-server.js), whatever the page.
  if (request.headers['x-middleware-prefetch']) {
    response.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate')
    response.setHeader('x-middleware-skip', '1')
    const held = holds.get(url.pathname)
    const empty = () => response.end('{}')
    return held ? void held.then(empty) : empty()
  }
  const rsc = request.headers.rsc === '1'
  const segment = request.headers['next-router-segment-prefetch'] ?? ''
  for (const name of RSC_REQUEST_HEADERS) delete request.headers[name]
  const answer = () => {
    response.setHeader('Content-Type', rsc ? 'text/x-component' : 'text/html')
    response.setHeader('Content-Security-Policy', `script-src 'self' 'sha256-${version}'`)
    response.setHeader('ETag', `"${version}"`)
    const language = url.pathname.startsWith('/by-language') ? ', Accept-Language' : ''
    response.setHeader(
      'Vary',
      `rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding${language}`,
    )
    response.setHeader('Cache-Control', url.pathname.startsWith('/private') ? 'private, no-store' : 's-maxage=31536000')
    if (url.pathname === '/cookie') response.setHeader('Set-Cookie', 'a=b')
    const body = url.pathname.startsWith('/long/')
      ? 'x'.repeat(550)
      : `${url.pathname} ${version} rsc=${rsc} segment=${segment} encoding=${negotiateEncoding(request.headers['accept-encoding'])} language=${request.headers['accept-language'] ?? ''}`
    response.setHeader('Content-Length', Buffer.byteLength(body))
    response.end(Buffer.from(body))
  }
  const held = holds.get(url.pathname)
  if (held) void held.then(answer)
  else answer()
}

/**
 * Starts the server, each request going through `pipeline()` (the test's pipeline of the moment) to the
 * stand-in, counts and version reset; resolves to the function that stops it.
 */
export async function startNextStandIn(pipeline: () => ResponsePipeline): Promise<() => Promise<void>> {
  rendered = 0
  version = 'one'
  renders.clear()
  arrivals.clear()
  holds.clear()
  onEvent = () => {}
  const server: Server = createServer((request, response) => {
    count(arrivals, new URL(request.url ?? '/', 'http://x').pathname)
    onEvent()
    pipeline()(request, response, nextLike)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

export const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br', ...headers } })
