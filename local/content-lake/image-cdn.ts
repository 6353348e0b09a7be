import { gatewayError } from './content-lake-error.ts'
import { parseImageParams, transformKey, type ImageParams, type OutputFormat } from './image-params.ts'
import { FORMAT_TYPES, outputFormat, transformImage } from './image-transform.ts'
import type { TransformCache } from './transform-cache.ts'

/*
 * The lake's image CDN: a transform is read from the cache or made at most `concurrency` at a time
 * (a decoded 12 MP image is ~36 MB: a flood of distinct sizes must queue, not decode at once), with
 * at most `maxWaiting` queued; more get the 503 a busy CDN edge gives, and try again.
 */

export type ImageCdnOptions = { concurrency?: number; maxWaiting?: number }
export type TransformedImage = { bytes: Buffer; contentType: string; format: OutputFormat; params: ImageParams }

export class ImageCdn {
  readonly cache: TransformCache
  private readonly concurrency: number
  private readonly maxWaiting: number
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** The same transform asked for twice at once is made once. */
  private readonly pending = new Map<string, Promise<Buffer>>()
  /** The most transforms that ever ran at once (tests check the limit holds). */
  peakRunning = 0

  constructor(cache: TransformCache, options: ImageCdnOptions = {}) {
    this.cache = cache
    this.concurrency = options.concurrency ?? 2
    this.maxWaiting = options.maxWaiting ?? 256
  }

  /**
   * `file` is the stored name (`<sha1>-<w>x<h>.<ext>`); `read` gives its bytes, only when a transform
   * must be made (a cached answer never reads the original).
   */
  async transform(
    file: string,
    search: URLSearchParams,
    accept: string,
    read: () => Buffer | null,
  ): Promise<TransformedImage> {
    const params = parseImageParams(search)
    const format = outputFormat(params, file.split('.').pop() ?? '', accept)
    const key = transformKey(file, params, format)
    const result = { contentType: FORMAT_TYPES[format], format, params }
    const cached = this.cache.get(key)
    if (cached) return { bytes: cached, ...result }
    let making = this.pending.get(key)
    if (!making) {
      making = this.make(key, params, format, read).finally(() => this.pending.delete(key))
      this.pending.set(key, making)
    }
    return { bytes: await making, ...result }
  }

  private async make(
    key: string,
    params: ImageParams,
    format: OutputFormat,
    read: () => Buffer | null,
  ): Promise<Buffer> {
    await this.slot()
    try {
      // Another request may have made it while this one waited.
      const cached = this.cache.get(key)
      if (cached) return cached
      const source = read()
      if (!source) throw gatewayError(404, 'Not Found', 'Asset not found')
      const bytes = await transformImage(source, params, format)
      this.cache.set(key, bytes)
      return bytes
    } finally {
      this.release()
    }
  }

  private async slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++
      this.peakRunning = Math.max(this.peakRunning, this.running)
      return
    }
    if (this.waiting.length >= this.maxWaiting)
      throw gatewayError(503, 'Service Unavailable', 'Too many image transforms queued; try again')
    // release() hands its slot straight to the next in line, so `running` is not decremented between.
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.running--
  }
}
