import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { markLastGoodAnswer } from '../../lib/cache/last-good-answers.mjs'
import CacheHandler from '../../lib/cache/shared-cache-handler.mjs'

/*
 * The site's cache handler over Next's own file-system cache, as Next uses it: one handler per
 * request, a read (get) before each render or fetch and its result stored (set) after. A publish
 * between the two must not leave the old words passing for fresh.
 */
const require = createRequire(import.meta.url)
type Context = ConstructorParameters<typeof CacheHandler>[0]
const { nodeFs } = require('next/dist/server/lib/node-fs-methods') as { nodeFs: Context['fs'] }
const serverDistDir = mkdtempSync(join(tmpdir(), 'cache-handler-'))
type Handler = InstanceType<typeof CacheHandler>
type Args<M extends 'get' | 'set'> = Parameters<Handler[M]>
/** A request's handler, as Next makes one per request (memory only: nothing is written to disk). */
const request = (): Handler =>
  new CacheHandler({
    fs: nodeFs,
    serverDistDir,
    maxMemoryCacheSize: 4 * 1024 * 1024,
    flushToDisk: false,
    revalidatedTags: [],
    _requestHeaders: {},
  })
/** What a publish of `type` does through the webhook (app/api/revalidate): stale, on another request;
 *  a path's implicit tag (`_N_T_/fr`) as revalidatePath would. The tests wait a few milliseconds around
 *  it: a read begun in the very millisecond of a publish is taken as begun before it. */
const publish = (type: string) => request().revalidateTag(type, { expire: 31_536_000 })

const TAGS = ['sanity', 'homePage', 'clientLogo']
let keys = 0
const kinds = {
  fetch: {
    get: { kind: 'FETCH', tags: TAGS, softTags: ['_N_T_/fr'] } as unknown as Args<'get'>[1],
    set: { fetchCache: true, tags: TAGS } as Args<'set'>[2],
    value: (words: string) =>
      ({
        kind: 'FETCH',
        data: { headers: {}, body: JSON.stringify({ result: words }), status: 200, url: 'http://lake.test/query' },
        tags: TAGS,
        revalidate: false,
      }) as unknown as Args<'set'>[1],
    words: (entry: Awaited<ReturnType<Handler['get']>>) =>
      entry?.value?.kind === 'FETCH' ? (JSON.parse(entry.value.data.body) as { result: string }).result : null,
  },
  page: {
    get: { kind: 'APP_PAGE', isRoutePPREnabled: false, isFallback: false } as unknown as Args<'get'>[1],
    set: { cacheControl: { revalidate: false }, isRoutePPREnabled: false, isFallback: false } as Args<'set'>[2],
    value: (words: string) =>
      ({
        kind: 'APP_PAGE',
        html: `<h1>${words}</h1>`,
        rscData: Buffer.from(words),
        headers: { 'x-next-cache-tags': `_N_T_/fr,${TAGS.join(',')}` },
        status: 200,
        postponed: undefined,
        segmentData: undefined,
      }) as unknown as Args<'set'>[1],
    words: (entry: Awaited<ReturnType<Handler['get']>>) =>
      entry?.value?.kind === 'APP_PAGE' ? String(entry.value.html).slice(4, -5) : null,
  },
}

describe.each(Object.entries(kinds))('the cache handler, for a %s', (_, kind) => {
  it.each(['clientLogo', '_N_T_/fr'])(
    'keeps no result whose read began before %s was made stale: the next request reads again',
    async (tag) => {
      const key = `/route-cache/race-${keys++}`
      const slow = request()
      expect(await slow.get(key, kind.get)).toBeNull()
      // The second publish lands while the first one's render still waits for its (older) answer.
      await new Promise((resolve) => setTimeout(resolve, 2))
      await publish(tag)
      await slow.set(key, kind.value('before the publish'), kind.set)
      await new Promise((resolve) => setTimeout(resolve, 2))
      const next = request()
      expect(kind.words(await next.get(key, kind.get))).toBeNull()
      await next.set(key, kind.value('after the publish'), kind.set)
      expect(kind.words(await request().get(key, kind.get))).toBe('after the publish')
    },
  )

  it('keeps a result when what was published meanwhile is not shown by it', async () => {
    const key = `/route-cache/other-${keys++}`
    const render = request()
    expect(await render.get(key, kind.get)).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 2))
    await publish('legalPage')
    await render.set(key, kind.value('kept'), kind.set)
    expect(kind.words(await request().get(key, kind.get))).toBe('kept')
  })
})

describe('the cache handler, for a JSON answer', () => {
  // As Next stores a fetch: its body in base64, its headers as the service sent them.
  const answer = (body: string, type = 'application/json; charset=utf-8') =>
    ({
      kind: 'FETCH',
      data: {
        headers: { 'content-type': type },
        body: Buffer.from(body).toString('base64'),
        status: 200,
        url: 'http://lake.test/query',
      },
      tags: TAGS,
      revalidate: false,
    }) as unknown as Args<'set'>[1]

  it.each([
    ['cut short', '{"result": ['],
    ['empty', ''],
    ['a page from a proxy in between', '<html><body>Bad gateway</body></html>'],
  ])('keeps none that does not parse (%s): the next request reads again', async (_, body) => {
    const key = `/fetch-cache/unreadable-${keys++}`
    await request().set(key, answer(body), kinds.fetch.set)
    expect(await request().get(key, kinds.fetch.get)).toBeNull()
  })

  it.each([
    ['a JSON sequence (not one document)', '{"a":1}\n{"b":2}', 'application/json-seq'],
    ['plain text', 'not JSON', 'text/plain'],
  ])('keeps an answer of another type whatever its body: %s', async (_, body, type) => {
    const key = `/fetch-cache/other-type-${keys++}`
    await request().set(key, answer(body, type), kinds.fetch.set)
    expect((await request().get(key, kinds.fetch.get))?.value?.kind).toBe('FETCH')
  })

  it('keeps one that parses, a byte-order mark before it included', async () => {
    const marked = `/fetch-cache/bom-${keys++}`
    await request().set(marked, answer('\uFEFF{"result": "kept"}'), kinds.fetch.set)
    expect((await request().get(marked, kinds.fetch.get))?.value?.kind).toBe('FETCH')
  })

  it('keeps one that parses', async () => {
    const key = `/fetch-cache/readable-${keys++}`
    await request().set(key, answer('{"result": "kept"}'), kinds.fetch.set)
    const entry = await request().get(key, kinds.fetch.get)
    expect(entry?.value?.kind === 'FETCH' && Buffer.from(entry.value.data.body, 'base64').toString()).toBe(
      '{"result": "kept"}',
    )
  })
})

describe('the cache handler, after a render was given a last good answer (the Content Lake down)', () => {
  /** One request's read of a new key and its result stored after it, `meanwhile` running between. */
  const readThenStore = async (kind: (typeof kinds)[keyof typeof kinds], words: string, meanwhile = () => {}) => {
    // A read begun in the very millisecond of a mark is taken as under way then.
    await new Promise((resolve) => setTimeout(resolve, 2))
    const key = `/route-cache/last-good-${keys++}`
    const render = request()
    expect(await render.get(key, kind.get)).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 2))
    meanwhile()
    await render.set(key, kind.value(words), kind.set)
    return kind.words(await request().get(key, kind.get))
  }

  it('keeps no page whose render was under way then, but keeps the pages begun after it and the fetches', async () => {
    expect(await readThenStore(kinds.page, 'from the last good answer', markLastGoodAnswer)).toBeNull()
    expect(await readThenStore(kinds.fetch, 'an answer', markLastGoodAnswer)).toBe('an answer')
    expect(await readThenStore(kinds.page, 'kept')).toBe('kept')
  })
})
