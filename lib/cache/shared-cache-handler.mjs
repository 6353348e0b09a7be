// @ts-check
/*
 * Next's cache handler (next.config.ts `cacheHandler`): Next's own file-system cache, which says on the
 * process when a publish made tags stale (the `plume:published` event), here or, with REDIS_URL,
 * on another replica: our server's memory cache empties on it (server/response-pipeline.ts), its one
 * signal. With REDIS_URL (several replicas of the site), each replica still keeps its pages and
 * fetches in its own cache, and shares what was published: a tag one replica revalidates (the webhook
 * reached it) turns stale on every replica (lib/cache/tag-sync.mjs).
 * Why tags rather than the pages themselves in Redis: docs/decisions.md, « Several replicas ».
 *
 * REDIS_URL is read when the server starts, not when the build is made: the same build (an image)
 * runs alone or as one of several replicas.
 */
import { createRequire } from 'node:module'
import { keepFetchCacheDir } from './kept-answers.mjs'
import { lastGoodAnswerAt } from './last-good-answers.mjs'
import { startTagSync } from './tag-sync.mjs'

// Next's own modules, required as Next requires them: the same instances (its tag manifest above all).
const require = createRequire(import.meta.url)
/** @type {typeof import('next/dist/server/lib/incremental-cache/file-system-cache.js').default} */
const FileSystemCache = require('next/dist/server/lib/incremental-cache/file-system-cache.js').default
/** @type {typeof import('next/dist/server/lib/incremental-cache/tags-manifest.external.js').tagsManifest} */
const tagsManifest = require('next/dist/server/lib/incremental-cache/tags-manifest.external.js').tagsManifest
/** @typedef {InstanceType<typeof FileSystemCache>} NextFileSystemCache */
/** A process event of our own (Node's types know only its own events). */
const emit = /** @type {(event: string, ...args: unknown[]) => boolean} */ (process.emit.bind(process))

/** The event our server's memory cache listens for (server/response-pipeline.ts). */
export const PUBLISHED_EVENT = 'plume:published'

/** The longest the first request of a replica waits for the first catch-up with Redis. */
const FIRST_SYNC_WAIT_MS = 1000

/** One sync per process: Next makes a cache handler per request, and may load this module twice. */
const SYNC = Symbol.for('plume.shared-cache.tag-sync')
/** @typedef {Awaited<ReturnType<typeof startTagSync>>} TagSync */
/** @returns {Promise<TagSync | null>} */
function tagSync() {
  const holder = /** @type {Record<symbol, Promise<TagSync | null>>} */ (/** @type {unknown} */ (globalThis))
  holder[SYNC] ??= startTagSync({
    url: /** @type {string} */ (process.env.REDIS_URL),
    prefix: process.env.REDIS_KEY_PREFIX || undefined,
    manifest: tagsManifest,
    onPublished: (tags) => emit(PUBLISHED_EVENT, tags),
  }).catch((error) => {
    console.error(`[shared cache] not started: ${error?.message ?? error}; this replica serves alone`)
    return null
  })
  return holder[SYNC]
}

let firstSyncDone = false

/** The tags a page or a fetch is kept under; none for what no publish changes (images, redirects). */
function tagsOf(/** @type {Parameters<NextFileSystemCache['set']>} */ [, data, ctx]) {
  if (data?.kind === 'FETCH') return [...((ctx.fetchCache && ctx.tags) || []), ...(data.tags ?? [])]
  if (data?.kind === 'APP_PAGE' || data?.kind === 'APP_ROUTE' || data?.kind === 'PAGES') {
    const header = data.headers?.['x-next-cache-tags']
    return typeof header === 'string' ? header.split(',') : []
  }
  return []
}

/** Whether one of `tags` was made stale or expired at `since` or after (a publish, here or on a replica). */
function publishedSince(/** @type {string[]} */ tags, /** @type {number} */ since) {
  const now = Date.now()
  return tags.some((tag) => {
    const { stale, expired } = tagsManifest.get(tag) ?? {}
    return (stale ?? -1) >= since || (expired !== undefined && expired >= since && expired <= now)
  })
}

/**
 * Whether a fetch's answer says it is JSON and is not: an empty or cut-short body, a proxy's page in
 * between. Next keeps a 200 whatever its body, and every page that reads it would then fail on it until
 * a publish of its type, across restarts (the cache is on disk); not kept, the next request reads again.
 */
function unreadableJson(/** @type {Parameters<NextFileSystemCache['set']>[1]} */ data) {
  if (data?.kind !== 'FETCH') return false
  const headers = /** @type {Record<string, string>} */ (data.data.headers ?? {})
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? ''
  if (!/[/+]json\s*(;|$)/i.test(type)) return false
  try {
    JSON.parse(
      Buffer.from(data.data.body, 'base64')
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    )
    return false
  } catch {
    return true
  }
}

/**
 * Next's file-system cache, which says when a publish made tags stale here, and keeps no result that
 * may predate a publish: Next stamps a page or a fetch with the time it is stored, so one whose read
 * began before a publish of a type it shows, and ended after it, would pass for fresh with the old
 * words until the next publish of that type. Next makes this handler per request, so the first time it
 * was asked for a key is when that request's read of it began. Not kept, the last entry stays stale and
 * the next request reads again (docs/decisions.md, « Two publishes a moment apart »). Nor a JSON answer
 * that does not parse (unreadableJson), nor a page whose render may have been given a last good answer
 * (last-good-answers.mjs).
 */
class PublishingCache extends FileSystemCache {
  /** @type {Map<string, { at: number, softTags: string[] }>} When a key was first asked for, with a
   *  fetch's implicit tags (its page's paths), known only then. */
  #firstAsked = new Map()

  /** @param {ConstructorParameters<typeof FileSystemCache>[0]} context */
  constructor(context) {
    super(context)
    // Where the fetches are kept on disk, for a read that falls back on them (kept-answers.mjs). Next
    // makes handlers with no folder too (proxy.ts's requests): they leave the one known alone.
    if (typeof context.serverDistDir === 'string') keepFetchCacheDir(context.serverDistDir)
  }

  /** @type {NextFileSystemCache['get']} */
  async get(...args) {
    const [key, ctx] = args
    if (!this.#firstAsked.has(key))
      this.#firstAsked.set(key, { at: Date.now(), softTags: (ctx.kind === 'FETCH' && ctx.softTags) || [] })
    return super.get(...args)
  }

  /** @type {NextFileSystemCache['set']} */
  async set(...args) {
    const asked = this.#firstAsked.get(args[0])
    if (asked && publishedSince([...tagsOf(args), ...asked.softTags], asked.at)) return
    // A page (or route) whose render may have been given a last good answer, the Content Lake down.
    if (asked && args[1]?.kind !== 'FETCH' && lastGoodAnswerAt() >= asked.at) return
    if (unreadableJson(args[1])) return
    return super.set(...args)
  }

  /** @type {NextFileSystemCache['revalidateTag']} */
  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations)
    emit(PUBLISHED_EVENT, typeof tags === 'string' ? [tags] : tags)
  }
}

class SharedTagsCache extends PublishingCache {
  /** @param {ConstructorParameters<typeof FileSystemCache>[0]} context */
  constructor(context) {
    super(context)
    void tagSync()
  }

  /** @type {NextFileSystemCache['get']} */
  async get(...args) {
    if (!firstSyncDone) {
      const sync = await tagSync()
      if (sync) await Promise.race([sync.ready, new Promise((resolve) => setTimeout(resolve, FIRST_SYNC_WAIT_MS))])
      firstSyncDone = true
    }
    return super.get(...args)
  }

  /** @type {NextFileSystemCache['revalidateTag']} */
  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations)
    const sync = await tagSync()
    void sync?.publish(typeof tags === 'string' ? [tags] : tags)
  }
}

const shared = Boolean(process.env.REDIS_URL) && process.env.NEXT_PHASE !== 'phase-production-build'
export default shared ? SharedTagsCache : PublishingCache
