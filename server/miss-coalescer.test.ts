import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { negotiateEncoding } from './compression-stage.ts'
import { arrivals, get, hold, renders, startNextStandIn, until } from './next-stand-in.ts'
import { createResponsePipeline } from './response-pipeline.ts'
import { MemoryCache } from './memory-cache.ts'

/* Concurrent misses (miss-coalescer.ts), as the memory cache and the pipeline run them, in front of a
 * stand-in for Next.js (next-stand-in.ts) that holds its answers until every request of a burst has
 * arrived: identical GETs share one render, and nobody waits long behind a render that hangs. */

const pipeline = createResponsePipeline({
  cache: new MemoryCache({ negotiate: negotiateEncoding, now: () => 0, coalesceWaitMs: 600_000 }),
})
let stop: () => Promise<void>
beforeAll(async () => {
  stop = await startNextStandIn(() => pipeline)
})
afterAll(() => stop())

describe('MemoryCache: concurrent misses share one render', () => {
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

  it('a middleware prefetch, answered with an empty {} nobody keeps, does not make the page skip coalescing', async () => {
    const prefetch = await burst('/prefetched', [{ 'x-middleware-prefetch': '1' }])
    expect(prefetch.answers[0][1]).toBe('{}')
    // The page's own requests still share one render: the {} was the prefetch's answer, not the page's.
    const after = await burst(
      '/prefetched',
      Array.from({ length: N }, () => ({})),
    )
    expect([after.whileHeld, after.renders]).toEqual([1, 1])
  })
})

describe('MemoryCache: a render that hangs', () => {
  it('holds the identical requests behind it only coalesceWaitMs, then they go to Next.js themselves', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const cache = new MemoryCache({ coalesceWaitMs: 1_000 })
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
