import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { negotiateEncoding } from './compression-stage.ts'
import { createResponsePipeline, PUBLISH_ROUTES, type ResponsePipeline } from './response-pipeline.ts'
import { RSC_REQUEST_HEADERS, SharedCache } from './shared-cache.ts'

/* The shared cache, as the pipeline runs it, in front of a stand-in for Next.js that counts what it
 * renders and, like Next.js rendering a prerendered page, removes the RSC headers from the request
 * while it answers: shareable answers are kept per URL and variant, everything else always reaches
 * Next.js. The stand-in can hold answers back (hold()), and says when a request reached it. */

let rendered = 0
let version = 'one'
let clock = 0
/** Renders by path, and the requests that reached the server by path. */
const renders = new Map<string, number>()
const arrivals = new Map<string, number>()
const count = (counts: Map<string, number>, path: string) => counts.set(path, (counts.get(path) ?? 0) + 1)
/** Paths whose answers the stand-in holds back until released. */
const holds = new Map<string, Promise<void>>()
/** Called whenever a request reaches the server or the stand-in (tests wait on counts). */
let onEvent = () => {}

/** Holds the stand-in's answers for `path` until the returned function is called. */
function hold(path: string): () => void {
  let release = () => {}
  holds.set(path, new Promise<void>((resolve) => (release = resolve)))
  return () => {
    holds.delete(path)
    release()
  }
}

/** Resolves once `check` holds, checked whenever a request arrives anywhere. */
function until(check: () => boolean): Promise<void> {
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
    // The revalidation route answers 200 only for a signed request (here: without `x-answer`).
    const status = Number(request.headers['x-answer'] ?? 200)
    if (url.pathname === '/api/revalidate' && status === 200) version = 'two'
    const held = holds.get(url.pathname)
    const answer = () => {
      response.statusCode = status
      response.setHeader('Content-Type', 'application/json')
      response.end(Buffer.from('{"revalidated":true}'))
    }
    return held ? void held.then(answer) : answer()
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

const pipelineWith = (options: { maxBytes?: number } = {}) =>
  createResponsePipeline({
    cache: new SharedCache({ negotiate: negotiateEncoding, now: () => clock, coalesceWaitMs: 600_000, ...options }),
  })
let pipeline: ResponsePipeline = pipelineWith()
let server: Server
let base = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    count(arrivals, new URL(request.url ?? '/', 'http://x').pathname)
    onEvent()
    pipeline(request, response, nextLike)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br', ...headers } })
/** Whether `path` was answered without reaching the stand-in. */
async function fromCache(path: string, headers: Record<string, string> = {}) {
  const before = rendered
  await (await get(path, headers)).arrayBuffer()
  return rendered === before
}

describe('SharedCache', () => {
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

  it('only a verified publish empties it: a 200 from the revalidation route, not any other method, path or answer', async () => {
    await (await get('/kept')).text()
    for (const [method, path, headers] of [
      ['DELETE', '/_next/static/x.js', {}],
      ['PURGE', '/kept', {}],
      ['POST', '/kept', {}],
      ['POST', '/api/contact', {}],
      ['POST', '/api/revalidate', { 'x-answer': '401' }],
      ['POST', '/api/revalidate?x=1', { 'x-answer': '500' }],
      ['PUT', '/api/revalidate', { 'x-answer': '405' }],
    ] as const) {
      await (await fetch(`${base}${path}`, { method, headers })).text()
      expect([method, path, await fromCache('/kept')]).toEqual([method, path, true])
    }
    await (await fetch(`${base}/api/revalidate`, { method: 'POST' })).text()
    expect(await fromCache('/kept')).toBe(false)
  })

  it('the routes whose 200 empties it are exactly the app’s routes that revalidate', () => {
    // Every module of the site that can expire Next's cached pages (next/cache's revalidate and update
    // functions), as the route it serves: a new one must join PUBLISH_ROUTES, or the cache would keep
    // what it expired for up to 5 s.
    const root = join(import.meta.dirname, '..')
    const revalidating = ['app', 'lib', 'components']
      .flatMap((folder) =>
        readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((file) => join(folder, file)),
      )
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .filter((file) => {
        const source = readFileSync(join(root, file), 'utf8')
        return (
          /from ['"]next\/cache['"]/.test(source) &&
          /\b(revalidateTag|revalidatePath|updateTag|refresh)\s*\(/.test(source)
        )
      })
      .map((file) =>
        file.startsWith('app/') && /\/route\.tsx?$/.test(file)
          ? file
              .replace(/^app/, '')
              .replace(/\/\([^/]+\)/g, '')
              .replace(/\/route\.tsx?$/, '')
          : `${file} (not a route: a server action or a helper?)`,
      )
    expect(revalidating.sort()).toEqual([...PUBLISH_ROUTES].sort())
  })

  it('what empties it is the route’s answer, not the client leaving: a refused webhook whose client left empties nothing', async () => {
    await (await get('/kept')).text()
    const release = hold('/api/revalidate')
    const leaving = new AbortController()
    const before = renders.get('/api/revalidate') ?? 0
    const sent = fetch(`${base}/api/revalidate`, {
      method: 'POST',
      headers: { 'x-answer': '401' },
      signal: leaving.signal,
    }).catch(() => null)
    await until(() => (renders.get('/api/revalidate') ?? 0) > before)
    leaving.abort()
    await sent
    release()
    expect(await fromCache('/kept')).toBe(true)
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

describe('SharedCache: concurrent misses share one render', () => {
  const N = 6
  /** Sends `requests` at once, each once the previous has reached the server, holding `path`'s answers
   *  until all have arrived; resolves to the bodies and how many reached the stand-in before release. */
  async function burst(path: string, requests: Array<Record<string, string>>) {
    const release = hold(path)
    const arrived = arrivals.get(path) ?? 0
    const before = renders.get(path) ?? 0
    const responses = requests.map((headers) =>
      get(path, headers).then(async (r) => [r.headers.get('content-type'), await r.text()]),
    )
    await until(() => (arrivals.get(path) ?? 0) === arrived + requests.length)
    const whileHeld = (renders.get(path) ?? 0) - before
    release()
    const answers = await Promise.all(responses)
    return { answers, whileHeld, renders: (renders.get(path) ?? 0) - before }
  }

  it('N concurrent GETs for an uncached page reach Next.js once per variant, each answered as what it asked for', async () => {
    const plain = Array.from({ length: N }, () => ({}))
    const { answers, renders: count } = await burst('/burst', plain)
    expect(count).toBe(1)
    expect(new Set(answers.map(([, body]) => body)).size).toBe(1)
    // The RSC payload and the page are two variants: one render each, and each gets its own.
    const mixed = Array.from({ length: N }, (_, i): Record<string, string> => (i % 2 ? { rsc: '1' } : {}))
    const rsc = await burst('/burst-rsc', mixed)
    expect(rsc.renders).toBe(2)
    for (const [index, [type, body]] of rsc.answers.entries())
      expect([index, type, body]).toEqual([
        index,
        index % 2 ? 'text/x-component' : 'text/html',
        expect.stringContaining(`rsc=${index % 2 === 1}`),
      ])
  })

  it('waiters whose variant the kept answer is not (its Vary names another header) go to Next.js themselves', async () => {
    const requests = Array.from({ length: N }, (_, i) => ({ 'accept-language': i < 2 ? 'fr' : `lang-${i}` }))
    const { answers, renders: count } = await burst('/by-language', requests)
    // The first is rendered; the other French one is served its answer; every other language is rendered.
    expect(count).toBe(N - 1)
    for (const [index, [, body]] of answers.entries())
      expect([index, body]).toEqual([index, expect.stringContaining(`language=${requests[index]['accept-language']}`)])
  })

  it('an answer that cannot be kept lets its waiters go to Next.js, and the next burst goes straight through', async () => {
    const plain = Array.from({ length: N }, () => ({}))
    const first = await burst('/private-burst', plain)
    // While the first was being rendered, the others waited for it; then each went to Next.js.
    expect([first.whileHeld, first.renders]).toEqual([1, N])
    // Now known not to be kept: all reach Next.js at once, none waits for another (the stand-in answers
    // only once every one is there: were they waiting for each other, none would be answered).
    const second = await burst('/private-burst', plain)
    expect([second.whileHeld, second.renders]).toEqual([N, N])
  })
})

describe('SharedCache: a render that hangs', () => {
  it('holds the identical requests behind it only coalesceWaitMs, then they go to Next.js themselves', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const cache = new SharedCache({ coalesceWaitMs: 1_000 })
      const request = () => ({ method: 'GET', url: '/hung', headers: {} })
      const response = () =>
        Object.assign(new EventEmitter(), { writeHead() {}, end() {} }) as unknown as ServerResponse
      let forwarded = 0
      cache.handle(request(), response(), () => forwarded++)
      for (let i = 0; i < 4; i++) cache.handle(request(), response(), () => forwarded++)
      // The first went to Next.js and hangs there; the others wait for it.
      expect(forwarded).toBe(1)
      vi.advanceTimersByTime(999)
      await Promise.resolve()
      expect(forwarded).toBe(1)
      vi.advanceTimersByTime(1)
      await vi.waitFor(() => expect(forwarded).toBe(5))
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('SharedCache memory', () => {
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
      const cache = new SharedCache({ now: () => now })
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
