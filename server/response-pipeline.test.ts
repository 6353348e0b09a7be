import { createHash } from 'node:crypto'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync } from 'node:zlib'
import { EventEmitter } from 'node:events'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CDN_MAX_AGE } from './cdn-headers.ts'
import { createResponsePipeline, PUBLISHED_EVENT } from './response-pipeline.ts'
import { MemoryCache } from './memory-cache.ts'

/* The whole pipeline around a stand-in for Next.js that answers the ways Next.js does: a cached page
 * in one `end`, a streamed page (flushHeaders, then chunks), writeHead with headers (an object or a
 * flat list), a 304, a HEAD, JSON, an image, a live event stream. Requests go through node:http with
 * no automatic decompression: the test sees the bytes on the wire. The memory cache keeps nothing here
 * (memory-cache.test.ts tests it): every request reaches the stand-in. */

const PORTABLE =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self'; style-src-attr 'unsafe-inline'"
const STRICT = "default-src 'none'; script-src 'self'; style-src 'self'"
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const page = (script: string) =>
  `<!DOCTYPE html><html><body>${'<p>Bonjour tout le monde</p>'.repeat(100)}<script>${script}</script></body></html>`

function nextLike(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x')
  const version = url.searchParams.get('v') ?? 'a'
  response.setHeader('Content-Security-Policy', PORTABLE)
  switch (url.pathname) {
    case '/page':
      response.setHeader('Content-Type', 'text/html; charset=utf-8')
      response.setHeader('Cache-Control', 's-maxage=31536000')
      response.setHeader('ETag', `"${version}"`)
      if (request.headers['if-none-match']?.replace(/^W\//, '') === `"${version}"`) {
        response.statusCode = 304
        return response.end()
      }
      response.setHeader('Content-Length', Buffer.byteLength(page(`v(${version})`)))
      return response.end(page(`v(${version})`))
    case '/streamed': {
      response.setHeader('Content-Type', 'text/html; charset=utf-8')
      response.flushHeaders()
      const html = page('streamed("é")')
      response.write(html.slice(0, 20))
      response.write(Buffer.from(html.slice(20, 60)))
      setTimeout(() => response.end(html.slice(60)), 20)
      return
    }
    case '/write-head':
      response.writeHead(404, { 'Content-Type': 'text/html', 'X-Extra': 'kept' })
      return response.end(page('notFound()'))
    case '/flat-list':
      response.writeHead(200, ['Content-Type', 'text/html', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'])
      return response.end(page('flat()'))
    case '/json':
      response.setHeader('Content-Type', 'application/json')
      response.write('{"a":')
      return response.end('1}')
    case '/image':
      response.setHeader('Content-Type', 'image/png')
      return response.end(Buffer.alloc(4000, 1))
    case '/events':
      // A live stream (the draft-mode relay): its first event must leave at once; it never ends here.
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store, no-transform' })
      response.write(`data: ${'x'.repeat(2000)}\n\n`)
      return
    default:
      response.statusCode = 500
      response.end()
  }
}

const pipeline = createResponsePipeline({ cache: new MemoryCache({ maxBytes: 0 }) })
let server: Server
let port = 0
beforeAll(async () => {
  server = createServer((request, response) => pipeline(request, response, nextLike))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

type Raw = { status: number; headers: IncomingMessage['headers']; body: Buffer }
/** The raw response: status, headers and the bytes as sent. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Raw>((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers, method }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      )
    })
      .on('error', reject)
      .end()
  })
}

describe('the response pipeline, policy first', () => {
  it('a page sent in one piece: its script hash replaces unsafe-inline; body, length and ETag as Next wrote them', async () => {
    const response = await get('/page?v=one')
    expect(response.body.toString()).toBe(page('v(one)'))
    expect(Number(response.headers['content-length'])).toBe(response.body.length)
    expect(response.headers.etag).toBe('"one"')
    expect(response.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'self' ${hash('v(one)')}; style-src 'self'`,
    )
  })

  it('a regenerated page (new ETag, new script) gets its own hashes, not the earlier ones', async () => {
    await get('/page?v=one')
    const policy = (await get('/page?v=two')).headers['content-security-policy']
    expect(policy).toContain(hash('v(two)'))
    expect(policy).not.toContain(hash('v(one)'))
  })

  it('a streamed page is held back until complete, flushHeaders included, multi-byte text intact', async () => {
    const response = await get('/streamed')
    expect(response.body.toString()).toBe(page('streamed("é")'))
    expect(response.headers['content-security-policy']).toContain(hash('streamed("é")'))
    expect(Number(response.headers['content-length'])).toBe(response.body.length)
  })

  it('writeHead keeps its status and headers, as an object or a flat list, and the policy is still completed', async () => {
    const notFound = await get('/write-head')
    expect(notFound.status).toBe(404)
    expect(notFound.headers['x-extra']).toBe('kept')
    expect(notFound.headers['content-security-policy']).toContain(hash('notFound()'))
    const flat = await get('/flat-list')
    expect(flat.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect(flat.headers['content-security-policy']).toContain(hash('flat()'))
  })

  it('HEAD, JSON and images: no body read for them, the portable policy’s unsafe-inline goes all the same', async () => {
    const head = await get('/page?v=one', { 'accept-encoding': 'br' }, 'HEAD')
    expect([head.status, head.body.length, head.headers['content-security-policy']]).toEqual([200, 0, STRICT])
    const json = await get('/json')
    expect(JSON.parse(json.body.toString())).toEqual({ a: 1 })
    expect(json.headers['content-security-policy']).toBe(STRICT)
    const image = await get('/image', { 'accept-encoding': 'br' })
    expect([image.body.length, image.headers['content-encoding'], image.headers.vary]).toEqual([
      4000,
      undefined,
      undefined,
    ])
  })
})

describe('the response pipeline, then compression and the CDN’s headers', () => {
  it('a page in brotli: the policy names the scripts of the body, a weak ETag, Vary, the right length, a short s-maxage', async () => {
    const response = await get('/page?v=one', { 'accept-encoding': 'gzip, br' })
    expect(response.headers['content-encoding']).toBe('br')
    const html = brotliDecompressSync(response.body).toString()
    expect(html).toBe(page('v(one)'))
    expect(response.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'self' ${hash('v(one)')}; style-src 'self'`,
    )
    expect(response.headers.etag).toBe('W/"one"')
    expect(response.headers.vary).toBe('Accept-Encoding')
    expect(Number(response.headers['content-length'])).toBe(response.body.length)
    expect(response.body.length).toBeLessThan(html.length / 10)
    expect(response.headers['cache-control']).toContain(`s-maxage=${CDN_MAX_AGE}`)
  })

  it('revalidation with the weak ETag gets a 304, which carries that ETag, no policy and the CDN’s Cache-Control', async () => {
    const response = await get('/page?v=one', { 'accept-encoding': 'br', 'if-none-match': 'W/"one"' })
    expect(response.status).toBe(304)
    expect(response.headers.etag).toBe('W/"one"')
    expect(response.headers['content-security-policy']).toBeUndefined()
    expect(response.headers['cache-control']).toContain(`s-maxage=${CDN_MAX_AGE}`)
  })

  it('a live event stream passes through untouched, as it is written (holding it would hold it for ever)', async () => {
    const first = await new Promise<{ headers: IncomingMessage['headers']; chunk: string }>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path: '/events', headers: { 'accept-encoding': 'br, gzip' } },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            resolve({ headers: response.headers, chunk: chunk.toString() })
            outgoing.destroy()
          })
        },
      )
      outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)))
      outgoing.end()
    })
    expect(first.headers['content-type']).toBe('text/event-stream')
    expect(first.headers['content-encoding']).toBeUndefined()
    expect(first.headers.vary).toBeUndefined()
    // As Next.js sent them: no stage ran.
    expect(first.headers['content-security-policy']).toBe(PORTABLE)
    expect(first.headers['cache-control']).toBe('no-store, no-transform')
    expect(first.chunk.startsWith('data: x')).toBe(true)
  })
})

describe('a publish (this replica’s webhook, or another replica’s through REDIS_URL)', () => {
  it('empties the memory cache, and nothing else on the process does', () => {
    const publishes = new EventEmitter()
    const cache = new MemoryCache({ negotiate: () => 'identity' })
    const clear = vi.spyOn(cache, 'clear')
    createResponsePipeline({ cache, publishes })
    publishes.emit('something else')
    expect(clear).not.toHaveBeenCalled()
    publishes.emit(PUBLISHED_EVENT, ['homePage'])
    expect(clear).toHaveBeenCalledTimes(1)
  })
})
