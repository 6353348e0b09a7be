import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completePolicyOfHtml } from '../../scripts/lib/complete-policy.mjs'
import { CompressionMemo, compressResponse, negotiateEncoding } from '../../scripts/lib/compress-response.mjs'

/* The production server's compression, stacked as serve-site.mjs stacks it (policy completed from the
 * HTML, then the body compressed), around a stand-in for Next.js. Requests go through node:http with
 * no automatic decompression, so the test sees the bytes on the wire. */

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const page = (version: string) => `<!DOCTYPE html><html><body>${'<p>Bonjour tout le monde</p>'.repeat(200)}<script>v(${JSON.stringify(version)})</script></body></html>`

function nextLike(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x')
  const version = url.searchParams.get('v') ?? 'a'
  response.setHeader('Content-Security-Policy', "script-src 'self'")
  switch (url.pathname) {
    case '/page':
      response.setHeader('Content-Type', 'text/html; charset=utf-8')
      response.setHeader('Cache-Control', 's-maxage=31536000')
      response.setHeader('ETag', `"${version}"`)
      if (request.headers['if-none-match']?.replace(/^W\//, '') === `"${version}"`) {
        response.statusCode = 304
        return response.end()
      }
      response.setHeader('Content-Length', Buffer.byteLength(page(version)))
      return response.end(page(version))
    case '/private':
      response.setHeader('Content-Type', 'application/json')
      response.setHeader('Cache-Control', 'private, no-store')
      return response.end(JSON.stringify({ text: 'x'.repeat(4000), version }))
    case '/small':
      response.setHeader('Content-Type', 'text/plain')
      return response.end('petit')
    case '/stream':
      // A live stream (the draft-mode relay): its first event must leave at once; it never ends here.
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      response.write(`data: ${'x'.repeat(2000)}\n\n`)
      return
    case '/image':
      response.setHeader('Content-Type', 'image/png')
      return response.end(Buffer.alloc(4000, 1))
    default:
      response.statusCode = 500
      response.end()
  }
}

const memo = new CompressionMemo()
let server: Server
let port = 0
beforeAll(async () => {
  server = createServer((request, response) => {
    compressResponse(request, response, memo)
    completePolicyOfHtml(request, response, null)
    nextLike(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The raw response: status, headers and the bytes as sent. */
async function get(path: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http')
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, honours q=0 and *', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding(undefined)).toBeNull()
    expect(negotiateEncoding('*')).toBe('br')
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip')
  })
})

describe('compressResponse', () => {
  it('a page in brotli: the policy names the scripts of the body, a weak ETag, Vary, the right length', async () => {
    const response = await get('/page?v=one', { 'accept-encoding': 'gzip, br' })
    expect(response.headers['content-encoding']).toBe('br')
    const html = brotliDecompressSync(response.body).toString()
    expect(html).toBe(page('one'))
    expect(response.headers['content-security-policy']).toBe(`script-src 'self' ${hash('v("one")')}`)
    expect(response.headers.etag).toBe('W/"one"')
    expect(response.headers.vary).toBe('Accept-Encoding')
    expect(Number(response.headers['content-length'])).toBe(response.body.length)
    expect(response.body.length).toBeLessThan(html.length / 10)
  })

  it('gzip for a client without brotli; the body as is (Vary still said) for one that accepts neither', async () => {
    const gzip = await get('/page?v=one', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).toString()).toBe(page('one'))
    const plain = await get('/page?v=one')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(page('one'))
    expect(plain.headers.etag).toBe('"one"')
    expect(plain.headers.vary).toBe('Accept-Encoding')
    expect(plain.headers['content-security-policy']).toBe(`script-src 'self' ${hash('v("one")')}`)
  })

  it('compresses each version once: the same bytes again, a new version its own', async () => {
    const first = await get('/page?v=memo', { 'accept-encoding': 'br' })
    const kept = memo.entries.size
    const again = await get('/page?v=memo', { 'accept-encoding': 'br' })
    expect(memo.entries.size).toBe(kept)
    expect(again.body.equals(first.body)).toBe(true)
    const next = await get('/page?v=memo2', { 'accept-encoding': 'br' })
    expect(memo.entries.size).toBe(kept + 1)
    expect(brotliDecompressSync(next.body).toString()).toBe(page('memo2'))
    expect(next.headers['content-security-policy']).toContain(hash('v("memo2")'))
    expect(next.headers['content-security-policy']).not.toContain(hash('v("memo")'))
  })

  it('a private response is compressed but never kept; small and binary bodies are sent as they are', async () => {
    const kept = memo.entries.size
    const response = await get('/private?v=1', { 'accept-encoding': 'br' })
    expect(response.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(response.body).toString()).version).toBe('1')
    expect(memo.entries.size).toBe(kept)
    const small = await get('/small', { 'accept-encoding': 'br' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.body.toString()).toBe('petit')
    const image = await get('/image', { 'accept-encoding': 'br' })
    expect(image.headers['content-encoding']).toBeUndefined()
    expect(image.headers.vary).toBeUndefined()
  })

  it('a live event stream passes through as it is written, uncompressed (holding it would hold it for ever)', async () => {
    const { request } = await import('node:http')
    const first = await new Promise<{ type: string | undefined; encoding: string | undefined; chunk: string }>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path: '/stream', headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
        response.once('data', (chunk: Buffer) => {
          resolve({ type: response.headers['content-type'], encoding: response.headers['content-encoding'], chunk: chunk.toString() })
          outgoing.destroy()
        })
      })
      outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)))
      outgoing.end()
    })
    expect(first.type).toBe('text/event-stream')
    expect(first.encoding).toBeUndefined()
    expect(first.chunk.startsWith('data: x')).toBe(true)
  })

  it('revalidation with the weak ETag still gets a 304, which carries that ETag and no policy', async () => {
    const response = await get('/page?v=one', { 'accept-encoding': 'br', 'if-none-match': 'W/"one"' })
    expect(response.status).toBe(304)
    expect(response.headers.etag).toBe('W/"one"')
    expect(response.headers['content-security-policy']).toBeUndefined()
  })

  it('keeps within its byte budget, least recently used out', () => {
    const small = new CompressionMemo(2000)
    const bodies = ['a', 'b', 'c'].map((seed) => Buffer.from(Array.from({ length: 3000 }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(' ')))
    for (const body of bodies) small.get('gzip', body)
    expect(small.bytes).toBeLessThanOrEqual(2000)
    expect(small.entries.size).toBeLessThan(3)
  })
})
