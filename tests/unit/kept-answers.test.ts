import { mkdtempSync, utimesSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keptAnswer } from '../../lib/cache/kept-answers.mjs'
import CacheHandler from '../../lib/cache/shared-cache-handler.mjs'

/*
 * What a read falls back on when the Content Lake cannot be reached and the process has read nothing
 * yet: the published answers Next's data cache wrote to disk, written here by the site's cache handler
 * as Next writes them (its own format, its own folder), then found by dataset, query and parameters.
 */
const require = createRequire(import.meta.url)
type Context = ConstructorParameters<typeof CacheHandler>[0]
type Args = Parameters<InstanceType<typeof CacheHandler>['set']>
const { nodeFs } = require('next/dist/server/lib/node-fs-methods') as { nodeFs: Context['fs'] }
const root = mkdtempSync(join(tmpdir(), 'kept-answers-'))
const handler = () =>
  new CacheHandler({
    fs: nodeFs,
    serverDistDir: join(root, 'server'),
    flushToDisk: true,
    revalidatedTags: [],
    _requestHeaders: {},
  })

const QUERY = '*[_type == "page"][0]{ "title": select($locale == "en" => title.en, title.fr) }'
/** A Content Lake read's URL as @sanity/client sends it: the query and each parameter ($name, JSON). */
const url = (host: string, dataset: string, params: Record<string, string>, perspective = 'published') => {
  const search = new URLSearchParams({ query: QUERY })
  for (const [name, value] of Object.entries(params)) search.set(`$${name}`, JSON.stringify(value))
  search.set('returnQuery', 'false')
  search.set('perspective', perspective)
  return `http://${host}/v2025-10-01/data/query/${dataset}?${search}`
}
/** Stores an answer as Next does after a fetch, and dates its file. */
async function store(key: string, address: string, result: unknown, { status = 200, mtime = Date.now() } = {}) {
  const value = {
    kind: 'FETCH',
    data: {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify({ result, ms: 1 })).toString('base64'),
      status,
      url: address,
    },
    revalidate: false,
  } as unknown as Args[1]
  await handler().set(key, value, { fetchCache: true, tags: ['sanity'] } as Args[2])
  utimesSync(join(root, 'cache', 'fetch-cache', key), mtime / 1000, mtime / 1000)
}

describe('the answers Next keeps on disk, as a last good answer', () => {
  it('finds a published answer by dataset, query and parameters, whatever the address it was read at', async () => {
    const hourAgo = Date.now() - 3_600_000
    await store('built', url('build.test', 'production', { locale: 'fr' }), { title: 'Au build' }, { mtime: hourAgo })
    await store('served', url('lake.test', 'production', { locale: 'fr' }), { title: 'Depuis' })
    await store('staging', url('lake.test', 'staging', { locale: 'fr' }), { title: 'Essai' })
    await store('draft', url('lake.test', 'production', { locale: 'en' }, 'drafts'), { title: 'Draft' })
    await store('missing', url('lake.test', 'production', { locale: 'de' }), null)
    await store('failed', url('lake.test', 'production', { locale: 'it' }), { title: 'Panne' }, { status: 500 })

    // Next also makes handlers with no folder (for proxy.ts): they must neither fail nor lose the folder.
    expect(
      () =>
        new CacheHandler({
          fs: nodeFs,
          flushToDisk: true,
          revalidatedTags: [],
          _requestHeaders: {},
        } as unknown as Context),
    ).not.toThrow()

    // The newer of two reads of one query; parameters in any order, an undefined one left out.
    expect(await keptAnswer('production', QUERY, { slug: undefined, locale: 'fr' })).toEqual({ title: 'Depuis' })
    expect(await keptAnswer('staging', QUERY, { locale: 'fr' })).toEqual({ title: 'Essai' })
    // Never a draft, a null (what is gone is not brought back) or a failed read.
    for (const locale of ['en', 'de', 'it']) expect(await keptAnswer('production', QUERY, { locale })).toBeUndefined()
    expect(await keptAnswer('production', `${QUERY} `, { locale: 'fr' })).toBeUndefined()
  })
})
