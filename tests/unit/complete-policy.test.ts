import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completePolicyOfHtml } from '../../scripts/lib/complete-policy.mjs'

/* The production server's wrapper, around a stand-in for Next.js that answers the ways Next.js does:
 * a cached page in one `end`, a streamed page (flushHeaders, then chunks), writeHead with headers,
 * a 304, a HEAD, and non-HTML. */

const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'"
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const page = (script: string) => `<!DOCTYPE html><html><body><p>Bonjour</p><script>${script}</script></body></html>`

function nextLike(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x')
  response.setHeader('Content-Security-Policy', POLICY)
  switch (url.pathname) {
    case '/cached':
      response.setHeader('Content-Type', 'text/html; charset=utf-8')
      response.setHeader('ETag', `"${url.searchParams.get('v') ?? 'a'}"`)
      if (request.headers['if-none-match']) {
        response.statusCode = 304
        return response.end()
      }
      response.setHeader('Content-Length', Buffer.byteLength(page(`cached(${url.searchParams.get('v') ?? 'a'})`)))
      return response.end(page(`cached(${url.searchParams.get('v') ?? 'a'})`))
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
    case '/portable-json':
      response.setHeader('Content-Security-Policy', "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self'; style-src-attr 'unsafe-inline'")
      response.setHeader('Content-Type', 'application/json')
      return response.end('{}')
    case '/json':
      response.setHeader('Content-Type', 'application/json')
      response.write('{"a":')
      return response.end('1}')
    default:
      response.statusCode = 500
      response.end()
  }
}

let server: Server
let base = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    completePolicyOfHtml(request, response, request.headers.cookie === 'draft' ? "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'" : null)
    nextLike(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('completePolicyOfHtml', () => {
  it('a page sent in one piece: its script hash joins the policy, the body and its length are untouched', async () => {
    const response = await fetch(`${base}/cached?v=one`)
    const body = await response.text()
    expect(body).toBe(page('cached(one)'))
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(response.headers.get('content-security-policy')).toBe(`default-src 'none'; script-src 'self' ${hash('cached(one)')}; style-src 'self'`)
  })

  it('a regenerated page (new ETag, new script) gets its own hashes, not the earlier ones', async () => {
    await fetch(`${base}/cached?v=one`)
    const response = await fetch(`${base}/cached?v=two`)
    expect(response.headers.get('content-security-policy')).toContain(hash('cached(two)'))
    expect(response.headers.get('content-security-policy')).not.toContain(hash('cached(one)'))
  })

  it('a streamed page is held back until complete, flushHeaders included, multi-byte text intact', async () => {
    const response = await fetch(`${base}/streamed`)
    expect(await response.text()).toBe(page('streamed("é")'))
    expect(response.headers.get('content-security-policy')).toContain(hash('streamed("é")'))
  })

  it('writeHead keeps its status and headers, and the policy is still completed', async () => {
    const response = await fetch(`${base}/write-head`)
    expect(response.status).toBe(404)
    expect(response.headers.get('x-extra')).toBe('kept')
    expect(response.headers.get('content-security-policy')).toContain(hash('notFound()'))
  })

  it('draft mode swaps in the editors’ policy, completed the same way', async () => {
    const response = await fetch(`${base}/cached?v=one`, { headers: { cookie: 'draft' } })
    expect(response.headers.get('content-security-policy')).toBe(`default-src 'none'; script-src 'self' ${hash('cached(one)')}; style-src 'self' 'unsafe-inline'`)
  })

  it('a 304 sends no policy, so the browser keeps the one stored with that body; HEAD and non-HTML pass through', async () => {
    const notModified = await fetch(`${base}/cached?v=one`, { headers: { 'if-none-match': '"one"' } })
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('content-security-policy')).toBeNull()
    const head = await fetch(`${base}/cached?v=one`, { method: 'HEAD' })
    expect(head.headers.get('content-security-policy')).toBe(POLICY)
    const json = await fetch(`${base}/json`)
    expect(await json.json()).toEqual({ a: 1 })
    expect(json.headers.get('content-security-policy')).toBe(POLICY)
  })

  it('the portable policy of a response that is not HTML loses its unsafe-inline too', async () => {
    const response = await fetch(`${base}/portable-json`)
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'")
  })
})
