import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { negotiateEncoding } from './compression-stage.ts'
import { base, get, hold, publishes, renders, rendered, startNextStandIn, until } from './next-stand-in.ts'
import { createResponsePipeline, type ResponsePipeline } from './response-pipeline.ts'
import { MemoryCache } from './memory-cache.ts'

/* The memory cache, as the pipeline runs it, in front of a stand-in for Next.js (next-stand-in.ts):
 * shareable answers are kept per URL and variant, everything else always reaches Next.js. Concurrent
 * misses sharing one render: miss-coalescer.test.ts. */

let clock = 0
const pipelineWith = (options: { maxBytes?: number } = {}) =>
  createResponsePipeline({
    cache: new MemoryCache({ negotiate: negotiateEncoding, now: () => clock, coalesceWaitMs: 600_000, ...options }),
    publishes,
  })
let pipeline: ResponsePipeline = pipelineWith()
let stop: () => Promise<void>
beforeAll(async () => {
  stop = await startNextStandIn(() => pipeline)
})
afterAll(() => stop())

/** Whether `path` was answered without reaching the stand-in. */
async function fromCache(path: string, headers: Record<string, string> = {}) {
  const before = rendered
  await (await get(path, headers)).arrayBuffer()
  return rendered === before
}

describe('MemoryCache', () => {
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
    const gzip = await get('/page', { 'accept-encoding': 'gzip' })
    expect(await gzip.text()).toContain('encoding=gzip')
    const before = rendered
    expect(await (await get('/page', { 'accept-encoding': 'gzip, deflate, br' })).text()).toContain('encoding=br')
    expect(await (await get('/page', { 'accept-encoding': 'gzip;q=1' })).text()).toContain('encoding=gzip')
    expect(rendered).toBe(before)
  })

  it('an RSC answer is kept by the request as it arrived: a plain request never gets it, RSC requests do', async () => {
    for (const path of ['/?_rsc=abc', '/en', '/contact']) {
      const rsc = await get(path, { rsc: '1' })
      expect([path, rsc.headers.get('content-type')]).toEqual([path, 'text/x-component'])
      const plain = await get(path)
      expect([path, plain.headers.get('content-type')]).toEqual([path, 'text/html'])
      expect(await plain.text()).toContain('rsc=false')
      // Each, asked again, comes from the cache as what it is.
      expect([path, await fromCache(path, { rsc: '1' }), await fromCache(path)]).toEqual([path, true, true])
      expect((await get(path, { rsc: '1' })).headers.get('content-type')).toBe('text/x-component')
    }
    // A segment prefetch is another variant of the same URL.
    const segment = await get('/en', {
      rsc: '1',
      'next-router-prefetch': '1',
      'next-router-segment-prefetch': '/_tree',
    })
    expect(await segment.text()).toContain('segment=/_tree')
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
      expect([path, await fromCache(path, headers)]).toEqual([path, false])
    }
  })

  it('a POST (the revalidation webhook) empties it: the next visit gets the new version', async () => {
    await get('/page')
    await (await fetch(`${base}/api/revalidate`, { method: 'POST' })).text()
    const response = await get('/page')
    expect(response.headers.get('content-security-policy')).toBe("script-src 'self' 'sha256-two'")
  })

  it('requests Next could read its draft-mode cookie from, however written, are never kept nor served, and are private', async () => {
    for (const cookie of [
      ' __prerender_bypass =x',
      'a=1;\t__prerender_bypass=x',
      '__prerender_bypass="x"',
      '__prerender_bypass=',
    ]) {
      const path = `/spaced?${encodeURIComponent(cookie)}`
      const response = await get(path, { cookie })
      expect([cookie, response.headers.get('cache-control')]).toEqual([cookie, 'private, no-store'])
      await response.text()
      // Nothing of it was kept: a plain visitor reaches Next.js, and gets the shareable answer.
      expect([cookie, await fromCache(path)]).toEqual([cookie, false])
      // What a plain visitor's request left is not served to it either.
      expect([cookie, await fromCache(path, { cookie })]).toEqual([cookie, false])
    }
  })

  it('only a publish empties it: no other method, path or answer', async () => {
    await (await get('/kept')).text()
    for (const [method, path, headers] of [
      ['DELETE', '/_next/static/x.js', {}],
      ['PURGE', '/kept', {}],
      ['POST', '/kept', {}],
      ['POST', '/api/contact', {}],
      ['POST', '/api/revalidate', { 'x-answer': '401' }],
      ['PUT', '/api/revalidate', { 'x-answer': '405' }],
    ] as const) {
      await (await fetch(`${base}${path}`, { method, headers })).text()
      expect([method, path, await fromCache('/kept')]).toEqual([method, path, true])
    }
    await (await fetch(`${base}/api/revalidate`, { method: 'POST' })).text()
    expect(await fromCache('/kept')).toBe(false)
  })

  it('an answer Next.js was rendering when a publish emptied the cache is not kept', async () => {
    const release = hold('/rendering')
    const before = renders.get('/rendering') ?? 0
    const slow = get('/rendering')
    await until(() => (renders.get('/rendering') ?? 0) > before)
    await (await fetch(`${base}/api/revalidate`, { method: 'POST' })).text()
    release()
    await (await slow).text()
    expect(await fromCache('/rendering')).toBe(false)
    expect(await fromCache('/rendering')).toBe(true)
  })

  it('entries expire after a few seconds', async () => {
    await get('/expiring')
    expect(await fromCache('/expiring')).toBe(true)
    clock += 60_000
    expect(await fromCache('/expiring')).toBe(false)
  })
})

describe('MemoryCache memory', () => {
  it('counts URLs, keys and headers with the bodies: many long-URL entries stay within the budget', async () => {
    const maxBytes = 1_000_000
    pipeline = pipelineWith({ maxBytes })
    // Segment prefetches as a crawler sent them: 12 KB URLs, 550-byte bodies, 2.5 MB of URLs in all.
    const urls = Array.from({ length: 200 }, (_, i) => `/long/${i}?${'q'.repeat(12_000)}`)
    for (const url of urls) await (await get(url)).text()
    expect(pipeline.cache.bytes).toBeLessThanOrEqual(maxBytes)
    expect(pipeline.cache.bytes).toBeGreaterThanOrEqual(pipeline.cache.size * (12_000 + 550))
    // What is still answered without Next.js is all the cache holds: within the budget, URLs counted.
    const kept: string[] = []
    for (const url of urls.toReversed()) if (await fromCache(url)) kept.push(url)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length * (12_000 + 550)).toBeLessThanOrEqual(maxBytes)
    // The newest were kept, the oldest went first.
    expect(kept[0]).toBe(urls.at(-1))
  })

  it('drops expired entries when others come in, not only when they are asked for again', async () => {
    pipeline = pipelineWith()
    const first = pipeline.cache
    await (await get('/old')).text()
    clock += 60_000
    await (await get('/new')).text()
    pipeline = pipelineWith()
    await (await get('/new')).text()
    // What the first cache holds is what one holding only /new holds.
    expect([first.size, first.bytes]).toEqual([1, pipeline.cache.bytes])
  })

  it('drops expired entries on its own when no request comes in after them', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let now = 0
      const cache = new MemoryCache({ now: () => now })
      const request = { method: 'GET', url: '/after-a-burst', headers: {} }
      const headers = { 'cache-control': 'public, s-maxage=60', 'content-type': 'text/html' }
      cache.stage.apply({ status: 200, headers, body: Buffer.from('<p>kept</p>') }, request)
      expect(cache.size).toBe(1)
      now = 4_000
      vi.advanceTimersByTime(4_000)
      expect(cache.size).toBe(1)
      now = 5_000
      vi.advanceTimersByTime(1_000)
      expect([cache.size, cache.bytes]).toEqual([0, 0])
    } finally {
      vi.useRealTimers()
    }
  })
})
