// @ts-check
/*
 * The Content Lake's published answers that Next's data cache keeps on disk (<distDir>/cache/fetch-cache:
 * the build's reads, then every read since), found by their query and parameters. What a read falls
 * back on when the Content Lake cannot be reached and this process has no answer of its own in memory
 * (lib/sanity/fetch.ts): a server started during an outage, draft mode (which Next's data cache
 * bypasses), or a Content Lake address other than the build's (Next's keys hold the address).
 *
 * Next's cache handler (shared-cache-handler.mjs) says where its files are; the site's bundled code
 * and the handler, which Node loads apart, meet on the global. The files are Next's own format: a
 * FETCH entry is the answer's URL, status and body (base64). A query too long for a GET URL (the
 * client POSTs it) is not found, nor anything while the site is being built (a build must read the
 * Content Lake itself, or fail).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'

const DIR = Symbol.for('plume.fetch-cache-dir')
const holder = /** @type {Record<symbol, string | undefined>} */ (/** @type {unknown} */ (globalThis))

/** The most files read, the largest, and the most bytes in all: a fallback costs a bounded read. */
const MAX_FILES = 5000
const MAX_FILE_BYTES = 4 * 1024 * 1024
const MAX_TOTAL_BYTES = 64 * 1024 * 1024
/** How long one reading of the folder serves (an outage makes every page fall back at once). */
const INDEX_TTL_MS = 10_000

/** Called by the cache handler with Next's server folder (`<distDir>/server`), as Next places the files. */
export function keepFetchCacheDir(/** @type {string} */ serverDistDir) {
  holder[DIR] = path.join(serverDistDir, '..', 'cache', 'fetch-cache')
}

/** @typedef {{ dir: string, at: number, answers: Map<string, { result: unknown, mtime: number }> }} Index */
/** @type {Promise<Index> | undefined} */
let index

/**
 * The last published answer kept on disk for a query and its parameters on a dataset, or undefined.
 * @param {string} dataset
 * @param {string} query
 * @param {Record<string, unknown>} params
 * @returns {Promise<unknown>}
 */
export async function keptAnswer(dataset, query, params) {
  const dir = holder[DIR]
  if (!dir || process.env.NEXT_PHASE === 'phase-production-build') return undefined
  const now = Date.now()
  const last = index && (await index)
  if (!last || last.dir !== dir || last.at < now - INDEX_TTL_MS) index = readIndex(dir, now)
  const { answers } = await /** @type {Promise<Index>} */ (index)
  return answers.get(answerKey(dataset, query, params))?.result
}

/** @param {string} dataset @param {string} query @param {Record<string, unknown>} params */
function answerKey(dataset, query, params) {
  const sorted = Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .sort()
    .map((name) => [name, params[name]])
  return JSON.stringify([dataset, query, sorted])
}

/** @param {string} dir @param {number} at @returns {Promise<Index>} */
async function readIndex(dir, at) {
  /** @type {Index['answers']} */
  const answers = new Map()
  const names = await readdir(dir).catch(() => /** @type {string[]} */ ([]))
  let total = 0
  for (const name of names.slice(0, MAX_FILES)) {
    const file = path.join(dir, name)
    try {
      const { size, mtimeMs } = await stat(file)
      if (!(size <= MAX_FILE_BYTES) || total + size > MAX_TOTAL_BYTES) continue
      total += size
      const entry = readEntry(JSON.parse(await readFile(file, 'utf8')))
      if (!entry) continue
      const kept = answers.get(entry.key)
      // The same query read at two addresses (a build's, a server's): the newer answer.
      if (!kept || kept.mtime < mtimeMs) answers.set(entry.key, { result: entry.result, mtime: mtimeMs })
    } catch {
      // Not an entry (the tags manifest), or one being written: nothing to fall back on there.
    }
  }
  return { dir, at, answers }
}

/**
 * A published query's answer in one of Next's FETCH entries, or null.
 * @param {any} entry Next's JSON, checked here field by field.
 */
function readEntry(entry) {
  if (entry?.kind !== 'FETCH' || entry.data?.status !== 200 || typeof entry.data.url !== 'string') return null
  const url = new URL(entry.data.url)
  const dataset = url.pathname.match(/\/data\/query\/([^/]+)$/)?.[1]
  const query = url.searchParams.get('query')
  const perspective = url.searchParams.get('perspective') ?? 'published'
  if (!dataset || query === null || perspective !== 'published') return null
  /** @type {Record<string, unknown>} */
  const params = {}
  for (const [name, value] of url.searchParams) if (name.startsWith('$')) params[name.slice(1)] = JSON.parse(value)
  const body = JSON.parse(Buffer.from(entry.data.body, 'base64').toString('utf8'))
  if (!body || !('result' in body) || body.result == null) return null
  return { key: answerKey(decodeURIComponent(dataset), query, params), result: body.result }
}
