import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { negotiateEncoding } from '../../scripts/lib/compress-response.mjs'
import { ResponseCache } from '../../scripts/lib/response-cache.mjs'

/* The production server's response cache in front of a stand-in for Next.js that counts what it
 * renders: shareable answers are kept per URL and Vary, everything else always reaches Next.js. */

let rendered = 0
let version = 'one'
let clock = 0
const cache = new ResponseCache({ negotiate: negotiateEncoding, now: () => clock })

function nextLike(request: IncomingMessage, response: ServerResponse) {
  rendered++
  const url = new URL(request.url ?? '/', 'http://x')
  if (request.method === 'POST') {
    version = 'two'
    response.setHeader('Content-Type', 'application/json')
    return response.end(Buffer.from('{"revalidated":true}'))
  }
  response.setHeader('Content-Type', 'text/html')
  response.setHeader('Content-Security-Policy', `script-src 'self' 'sha256-${version}'`)
  response.setHeader('ETag', `"${version}"`)
  response.setHeader('Vary', 'RSC, Accept-Encoding')
  response.setHeader('Cache-Control', url.pathname === '/private' ? 'private, no-store' : 's-maxage=31536000')
  if (url.pathname === '/cookie') response.setHeader('Set-Cookie', 'a=b')
  const body = `${url.pathname} ${version} rsc=${request.headers.rsc ?? ''} encoding=${negotiateEncoding(request.headers['accept-encoding'])}`
  response.setHeader('Content-Length', Buffer.byteLength(body))
  response.end(Buffer.from(body))
}

let server: Server
let base = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    if (cache.serve(request, response)) return
    cache.record(request, response)
    nextLike(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br', ...headers } })

describe('ResponseCache', () => {
  it('sends a shareable answer again, headers and body as they were, without rendering', async () => {
    const first = await get('/page')
    const before = rendered
    const again = await get('/page')
    expect(rendered).toBe(before)
    expect(await again.text()).toBe(await first.text())
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
    expect(again.headers.get('etag')).toBe('"one"')
  })

  it('keeps one entry per value of the headers Vary names (Accept-Encoding as negotiated)', async () => {
    const rsc = await get('/page', { rsc: '1' })
    expect(await rsc.text()).toContain('rsc=1')
    const gzip = await get('/page', { 'accept-encoding': 'gzip' })
    expect(await gzip.text()).toContain('encoding=gzip')
    const before = rendered
    expect(await (await get('/page', { 'accept-encoding': 'gzip, deflate, br' })).text()).toContain('encoding=br')
    expect(await (await get('/page', { 'accept-encoding': 'gzip;q=1' })).text()).toContain('encoding=gzip')
    expect(rendered).toBe(before)
  })

  it('a matching If-None-Match gets a 304 without the policy', async () => {
    const response = await get('/page', { 'if-none-match': 'W/"one"' })
    expect(response.status).toBe(304)
    expect(response.headers.get('content-security-policy')).toBeNull()
    expect(response.headers.get('etag')).toBe('"one"')
  })

  it('private answers, answers that set a cookie and draft-mode requests always reach Next.js', async () => {
    for (const [path, headers] of [
      ['/private', {}],
      ['/cookie', {}],
      ['/page', { cookie: '__prerender_bypass=abc' }],
    ] as const) {
      await get(path, headers)
      const before = rendered
      await get(path, headers)
      expect([path, rendered]).toEqual([path, before + 1])
    }
  })

  it('a POST (the revalidation webhook) empties it: the next visit gets the new version', async () => {
    await get('/page')
    await fetch(`${base}/api/revalidate`, { method: 'POST' })
    const before = rendered
    const response = await get('/page')
    expect(rendered).toBe(before + 1)
    expect(response.headers.get('content-security-policy')).toBe("script-src 'self' 'sha256-two'")
  })

  it('entries expire after a few seconds', async () => {
    await get('/expiring')
    const before = rendered
    await get('/expiring')
    expect(rendered).toBe(before)
    clock += 60_000
    await get('/expiring')
    expect(rendered).toBe(before + 1)
  })
})
