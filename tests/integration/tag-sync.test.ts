import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTagSync } from '../../lib/cache/tag-sync.mjs'
import { findRedisServer, startRedisServer, type RunningRedis } from '../../scripts/lib/redis-server.ts'
import { freePort } from '@plume/twins/free-port'
import { PUBLISHED_EVENT } from '../../server/response-pipeline.ts'

/*
 * Published changes shared by replicas through a real Redis (lib/cache/tag-sync.mjs): each "replica"
 * here is a sync with a tag manifest of its own, as each server process has Next's. Redis stopped and
 * started again on the same port, as a restarted container would be.
 */

type Manifest = Map<string, { stale?: number; expired?: number }>
type Sync = Awaited<ReturnType<typeof startTagSync>>
/** The lines a replica logged that say Redis cannot be reached. */
const unreachable = (log: { mock: { calls: string[][] } }) =>
  log.mock.calls.filter(([line]) => /is unreachable/.test(line))

let redis: RunningRedis
let port: number
const binary = findRedisServer()
const syncs: Sync[] = []

async function replica(url = `redis://127.0.0.1:${port}`) {
  const manifest: Manifest = new Map()
  const published: string[][] = []
  const log = vi.fn<(message: string) => void>()
  const sync = await startTagSync({
    url,
    prefix: 'test:',
    manifest,
    onPublished: (tags) => published.push(tags),
    log,
    catchUpMs: 60_000,
  })
  syncs.push(sync)
  return { sync, manifest, published, log }
}

/** Polls until `check` holds (bounded: a hang fails, a slow machine does not). */
async function until(what: string, check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

beforeAll(async () => {
  port = await freePort()
  redis = await startRedisServer({ port, binary })
})
afterAll(async () => {
  await Promise.all(syncs.map((sync) => sync.close()))
  await redis?.stop()
})

describe('published tags shared through Redis', () => {
  it('a tag one replica publishes turns stale on the other (never expired: a failed render keeps the last page); a replica started later starts with it stale', async () => {
    const a = await replica()
    const b = await replica()
    await Promise.all([a.sync.ready, b.sync.ready])
    // What is not ours, under our prefix, is skipped (never thrown inside the Redis client).
    const other = createClient({ url: redis.url })
    await other.connect()
    await other.hSet('test:published-tags', 'junk', 'not json')
    await other.publish('test:published', 'garbage')
    await other.publish('test:published', JSON.stringify({ sender: 'x', events: [{ tag: 1 }] }))
    await other.close()
    const before = Date.now()
    await a.sync.publish(['testimonial'])
    await until('B hears of the publish', () => b.manifest.has('testimonial'))
    expect(b.published).toEqual([['testimonial']])
    expect(b.manifest.get('testimonial')!.stale).toBeGreaterThanOrEqual(before)
    expect(b.manifest.get('testimonial')!.expired).toBeUndefined()
    // The publisher applied it itself (Next's revalidateTag): it is not told again.
    expect([a.manifest.size, a.published]).toEqual([0, []])

    const late = await replica()
    await late.sync.ready
    const stale = late.manifest.get('testimonial')?.stale
    // Dated by the publish itself: a page rendered after it (a newer build) stays fresh.
    expect(stale).toBeGreaterThanOrEqual(before)
    expect(stale).toBeLessThanOrEqual(Date.now())
    expect(late.manifest.get('testimonial')?.expired).toBeUndefined()
    expect(late.published).toEqual([['testimonial']])
  })

  it('Redis stopped: publishing still works locally and waits; Redis back, what was published reaches the others', async () => {
    const a = await replica()
    const b = await replica()
    await Promise.all([a.sync.ready, b.sync.ready])
    expect(a.log.mock.calls).toEqual([
      [
        expect.stringMatching(
          /^\[shared cache\] publishes are shared with the other replicas through Redis at redis:\/\/127\.0\.0\.1:\d+/,
        ),
      ],
    ])
    await redis.stop()
    await until('A sees Redis gone', () => unreachable(a.log).length > 0)
    // Several publishes while it is down: no throw, one log line per outage.
    await a.sync.publish(['service'])
    await a.sync.publish(['service', 'page'])
    expect(unreachable(a.log).length).toBe(1)
    expect(unreachable(a.log)[0][0]).toMatch(/^\[shared cache\] Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unreachable/)
    expect(b.manifest.has('service')).toBe(false)

    redis = await startRedisServer({ port, binary })
    await until('B hears of what A published while Redis was down', () => b.manifest.has('page'))
    expect(b.manifest.has('service')).toBe(true)
    await until('A says Redis is back', () => a.log.mock.calls.some(([line]) => /reachable again/.test(line)))
    // And a publish now propagates as before.
    await a.sync.publish(['settings'])
    await until('B hears of the next publish', () => b.manifest.has('settings'))
  })

  it('a Redis that never answers: the sync starts, publishing resolves, and it says so once', async () => {
    const unused = await freePort()
    const lonely = await replica(`redis://:secret@127.0.0.1:${unused}`)
    await lonely.sync.publish(['page'])
    await until('it says Redis is unreachable', () => lonely.log.mock.calls.length > 0)
    expect(lonely.log.mock.calls[0][0]).toContain('redis://:***@127.0.0.1')
    expect(lonely.log.mock.calls[0][0]).not.toContain('secret')
  })
})

describe("Next's cache handler (lib/cache/shared-cache-handler.mjs)", () => {
  const nextFileSystemCache = createRequire(import.meta.url)(
    'next/dist/server/lib/incremental-cache/file-system-cache.js',
  ).default as unknown
  const load = async (redisUrl: string | undefined) => {
    vi.resetModules()
    vi.stubEnv('REDIS_URL', redisUrl)
    try {
      return await import('../../lib/cache/shared-cache-handler.mjs')
    } finally {
      vi.unstubAllEnvs()
    }
  }

  it("is Next's own file-system cache, with or without REDIS_URL, and shares tags with it", async () => {
    const alone = (await load(undefined)).default
    expect(Object.getPrototypeOf(alone)).toBe(nextFileSystemCache)
    const shared = await load('redis://127.0.0.1:1')
    expect(Object.getPrototypeOf(Object.getPrototypeOf(shared.default))).toBe(nextFileSystemCache)
  })

  it('tells our server by the event it listens for when a publish made tags stale here', async () => {
    const handler = await load(undefined)
    expect(handler.PUBLISHED_EVENT).toBe(PUBLISHED_EVENT)
    const heard: unknown[] = []
    const listener = (tags: unknown) => heard.push(tags)
    process.on(PUBLISHED_EVENT, listener)
    try {
      const cache = new handler.default({ fs: undefined, serverDistDir: tmpdir(), revalidatedTags: [] } as never)
      await cache.revalidateTag('homePage', { expire: 31_536_000 })
      expect(heard).toEqual([['homePage']])
    } finally {
      process.off(PUBLISHED_EVENT, listener)
    }
  })
})
