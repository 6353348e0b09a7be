import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ByteBoundedCache } from './byte-bounded-cache.ts'

/*
 * Transformed images, kept by their normalised parameters and bounded in bytes: least recently used
 * first out. On disk under the data folder (a restart keeps them), in memory for --memory lakes. Only
 * the index (key → size) is held in memory for the disk cache, never the images.
 */

/** The disk cache's default budget (twins/content-lake/README.md). */
export const DEFAULT_TRANSFORM_CACHE_BYTES = 256 * 1024 * 1024
/** A memory-only lake keeps less: the bytes are in its heap. */
export const DEFAULT_MEMORY_TRANSFORM_CACHE_BYTES = 32 * 1024 * 1024

export interface TransformCache {
  get(key: string): Buffer | undefined
  set(key: string, bytes: Buffer): void
  /** What the kept results weigh, in bytes. */
  readonly bytes: number
  readonly maxBytes: number
}

const fileName = (key: string) => `${createHash('sha256').update(key).digest('hex')}.bin`

export class DiskTransformCache implements TransformCache {
  private readonly folder: string
  /** File name → size, in access order (Map keeps insertion order; a hit re-inserts). */
  private readonly index = new Map<string, number>()
  private total = 0
  readonly maxBytes: number

  constructor(folder: string, maxBytes = DEFAULT_TRANSFORM_CACHE_BYTES) {
    this.folder = folder
    this.maxBytes = maxBytes
    mkdirSync(folder, { recursive: true })
    // After a restart the access order is gone: the files' modification times stand in for it.
    const found = readdirSync(folder)
      .filter((name) => name.endsWith('.bin'))
      .map((name) => ({ name, stat: statSync(join(folder, name)) }))
      .sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs)
    for (const { name, stat } of found) {
      this.index.set(name, stat.size)
      this.total += stat.size
    }
    for (const name of readdirSync(folder)) if (name.endsWith('.tmp')) unlinkSync(join(folder, name))
    this.evict(0)
  }

  get bytes(): number {
    return this.total
  }

  get(key: string): Buffer | undefined {
    const name = fileName(key)
    const size = this.index.get(name)
    if (size === undefined) return undefined
    try {
      const bytes = readFileSync(join(this.folder, name))
      this.index.delete(name)
      this.index.set(name, size)
      return bytes
    } catch {
      // Removed behind our back (someone cleaned the folder): a miss, and forgotten.
      this.index.delete(name)
      this.total -= size
      return undefined
    }
  }

  set(key: string, bytes: Buffer): void {
    const name = fileName(key)
    // One result larger than a quarter of the budget would push out most others: served, not kept.
    if (bytes.length > this.maxBytes / 4 || this.index.has(name)) return
    this.evict(bytes.length)
    // Written aside and renamed: a crash leaves a whole file or none, never half an image.
    const path = join(this.folder, name)
    writeFileSync(`${path}.tmp`, bytes)
    renameSync(`${path}.tmp`, path)
    this.index.set(name, bytes.length)
    this.total += bytes.length
  }

  /** Removes the least recently used until `incoming` more bytes fit. */
  private evict(incoming: number): void {
    for (const [name, size] of this.index) {
      if (this.total + incoming <= this.maxBytes) return
      this.index.delete(name)
      this.total -= size
      try {
        unlinkSync(join(this.folder, name))
      } catch {
        // Already gone: its bytes are no longer counted either way.
      }
    }
  }
}

export class MemoryTransformCache implements TransformCache {
  private readonly entries: ByteBoundedCache<Buffer>

  constructor(maxBytes = DEFAULT_MEMORY_TRANSFORM_CACHE_BYTES) {
    this.entries = new ByteBoundedCache<Buffer>(maxBytes, maxBytes / 4)
  }

  get bytes(): number {
    return this.entries.bytes
  }

  get maxBytes(): number {
    return this.entries.maxBytes
  }

  get(key: string): Buffer | undefined {
    return this.entries.get(key)
  }

  set(key: string, bytes: Buffer): void {
    this.entries.set(key, bytes, bytes.length)
  }
}
