import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { ImageCdn } from './image-cdn.ts'
import { DiskTransformCache, MemoryTransformCache } from './transform-cache.ts'

/*
 * The transform cache's bounds (issue 38): a flood of distinct sizes keeps the cache under its byte
 * budget, on disk and in memory, and transforms queue rather than run at once.
 */

const folders: string[] = []
const folder = () => {
  const path = mkdtempSync(join(tmpdir(), 'transform-cache-'))
  folders.push(path)
  return path
}
afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true })
})

/** What the folder's cached files weigh. */
const onDisk = (path: string) => readdirSync(path).reduce((total, name) => total + statSync(join(path, name)).size, 0)

describe('DiskTransformCache', () => {
  it('drops the least recently used first, and keeps one just read', () => {
    const path = folder()
    const cache = new DiskTransformCache(path, 4000)
    cache.set('a', Buffer.alloc(1000, 1))
    cache.set('b', Buffer.alloc(1000, 2))
    cache.set('c', Buffer.alloc(1000, 3))
    expect(cache.get('a')?.[0]).toBe(1)
    cache.set('d', Buffer.alloc(1000, 4))
    cache.set('e', Buffer.alloc(1000, 5))
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.[0]).toBe(1)
    expect(cache.bytes).toBe(4000)
    expect(onDisk(path)).toBe(4000)
  })

  it('does not keep a result larger than a quarter of its budget', () => {
    const cache = new DiskTransformCache(folder(), 4000)
    cache.set('big', Buffer.alloc(1001))
    expect(cache.get('big')).toBeUndefined()
    expect(cache.bytes).toBe(0)
  })

  it('finds its files again after a restart, within a smaller budget if it shrank', () => {
    const path = folder()
    const first = new DiskTransformCache(path, 10_000)
    for (const key of ['a', 'b', 'c', 'd']) first.set(key, Buffer.alloc(1000))
    expect(new DiskTransformCache(path, 10_000).get('d')).toHaveLength(1000)
    const smaller = new DiskTransformCache(path, 2500)
    expect(smaller.bytes).toBeLessThanOrEqual(2500)
    expect(onDisk(path)).toBeLessThanOrEqual(2500)
  })
})

describe('a flood of distinct sizes', () => {
  it('2,000 distinct widths keep the cache under its budget and run two transforms at a time', async () => {
    const path = folder()
    const cache = new DiskTransformCache(path, 64 * 1024)
    const cdn = new ImageCdn(cache, { concurrency: 2, maxWaiting: 64 })
    const source = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer()
    let next = 1
    let highest = 0
    let made = 0
    // 32 clients at once, each asking for widths nobody asked for before.
    const client = async () => {
      while (next <= 2_000) {
        const width = next++
        const image = await cdn.transform('src-64x48.jpg', new URLSearchParams(`w=${width}&fit=max`), '', () => source)
        if (image.bytes.length > 0) made++
        highest = Math.max(highest, cache.bytes)
      }
    }
    await Promise.all(Array.from({ length: 32 }, client))
    expect(made).toBe(2_000)
    expect(highest).toBeGreaterThan(32 * 1024)
    expect(highest).toBeLessThanOrEqual(64 * 1024)
    expect(onDisk(path)).toBeLessThanOrEqual(64 * 1024)
    expect(cdn.peakRunning).toBe(2)
  }, 120_000)

  it('the memory cache holds the same budget', async () => {
    const cache = new MemoryTransformCache(16 * 1024)
    const cdn = new ImageCdn(cache)
    const source = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#993366' } })
      .png()
      .toBuffer()
    for (let width = 1; width <= 500; width++) {
      await cdn.transform('src-32x32.png', new URLSearchParams(`w=${width}`), '', () => source)
      expect(cache.bytes).toBeLessThanOrEqual(16 * 1024)
    }
    expect(cache.bytes).toBeGreaterThan(8 * 1024)
  }, 60_000)

  it('refuses with 503 what would queue beyond its limit', async () => {
    const cdn = new ImageCdn(new MemoryTransformCache(), { concurrency: 1, maxWaiting: 2 })
    const source = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer()
    const results = await Promise.allSettled(
      [10, 20, 30, 40, 50].map((width) =>
        cdn.transform('src-200x200.jpg', new URLSearchParams(`w=${width}`), '', () => source),
      ),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3)
    expect(results.filter((result) => result.status === 'rejected').map((result) => result.reason.status)).toEqual([
      503, 503,
    ])
  })
})
