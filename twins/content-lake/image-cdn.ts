import { ContentLakeError, gatewayError } from './content-lake-error.ts'
import {
  MAX_INPUT_PIXELS,
  MAX_OUTPUT_SIDE,
  parseImageParams,
  transformKey,
  type ImageParams,
  type OutputFormat,
} from './image-params.ts'
import {
  FORMAT_COST,
  FORMAT_TYPES,
  outputFormat,
  storedSize,
  transformImage,
  transformPixels,
} from './image-transform.ts'
import type { TransformCache } from './transform-cache.ts'

/*
 * The lake's image CDN: a transform is read from the cache or made, `concurrency` at a time (one per
 * core: each holds one libvips thread, image-transform.ts). What a transform costs is known before it
 * starts, from the source's size in its stored name and the parameters: the pixels it makes (at most
 * 8192², the cap), weighed by its encoder (FORMAT_COST: an AVIF pixel costs eight JPEG ones). Sharp
 * cannot stop a transform half-way, so the cost is bounded before it is spent:
 *
 * - Two lanes. A small transform (at most `smallCost`, 12 megapixels of JPEG, 1.5 of AVIF, under a
 *   second: every size a page asks for) may take any slot; a large one only `largeConcurrency` of them
 *   (one), so that a page's images never wait behind a flood of 8192² ones. Small ones wait cheapest
 *   first.
 * - A client (its address) may have `clientCost` of large transforms waiting or running (two 8192²
 *   JPEGs or PNGs; one larger alone); past that it gets 429 with Retry-After, at once and for nothing.
 *   All clients' large ones wait `maxLargeWaiting` at most, then 503; small ones `maxWaiting`, past
 *   which the costliest waiting one is refused with 503 (the newcomer if it is that one), so a cheap
 *   ask is never turned away for dear ones.
 * - A transform waiting in line leaves it when every client that asked for it has gone: it never runs.
 *   One already running finishes (and is cached), in its lane's one slot.
 *
 * On loopback every browser and script is one client (127.0.0.1): the budget then holds all of them
 * together, which is why small transforms are outside it.
 */

export type ImageCdnOptions = {
  /** Transforms made at once (default 2). */
  concurrency?: number
  /** How many of those may be large (default 1): the others are kept for small ones. */
  largeConcurrency?: number
  /** A transform costing at most this much (pixels × FORMAT_COST) is small (default 12 megapixels). */
  smallCost?: number
  /** Small transforms waiting at most (default 256). */
  maxWaiting?: number
  /** Large transforms waiting at most, every client's together (default 8). */
  maxLargeWaiting?: number
  /** What one client's large transforms waiting or running may cost together (default 2 × 8192²). */
  clientCost?: number
  /** How a transform is made (default transformImage; tests hold it to look at the line). */
  make?: (source: Buffer, params: ImageParams, format: OutputFormat) => Promise<Buffer>
}

/** Who asks (an address) and until when the answer is wanted (the request's connection closing). */
export type Asker = { client?: string; signal?: AbortSignal }

export type TransformedImage = { bytes: Buffer; contentType: string; format: OutputFormat; params: ImageParams }

type Lane = 'small' | 'large'

type Waiter = {
  resolve: (bytes: Buffer) => void
  reject: (error: unknown) => void
  signal?: AbortSignal
  onAbort?: () => void
}

type Job = {
  key: string
  lane: Lane
  /** The pixels it makes × FORMAT_COST, charged to `client` while it waits or runs (large ones). */
  cost: number
  client: string
  params: ImageParams
  format: OutputFormat
  read: () => Buffer | null
  waiters: Set<Waiter>
  running: boolean
}

/** How long a refused client is told to wait: about what one large transform takes. */
export const RETRY_AFTER_SECONDS = 10

/** The request's client went away: nothing is sent (its connection is closed). */
export class ClientGoneError extends ContentLakeError {
  constructor() {
    super(499, { statusCode: 499, error: 'Client Closed Request', message: 'The client went away' }, 'client gone')
  }
}

export class ImageCdn {
  readonly cache: TransformCache
  private readonly concurrency: number
  private readonly largeConcurrency: number
  private readonly smallCost: number
  private readonly maxWaiting: number
  private readonly maxLargeWaiting: number
  private readonly clientCost: number
  private readonly make: NonNullable<ImageCdnOptions['make']>
  /** Transforms waiting or running, by key: the same transform asked for twice at once is made once. */
  private readonly jobs = new Map<string, Job>()
  /** Small ones waiting, cheapest first; large ones, first come first served. */
  private readonly small: Job[] = []
  private readonly large: Job[] = []
  private readonly running = { small: 0, large: 0 }
  /** What each client's large transforms waiting or running cost. */
  private readonly held = new Map<string, number>()
  /** The most transforms that ever ran at once, all and large (tests check the limits hold). */
  peakRunning = 0
  peakRunningLarge = 0
  /** Transforms made, and dropped from the line because their clients left. */
  made = 0
  dropped = 0

  constructor(cache: TransformCache, options: ImageCdnOptions = {}) {
    this.cache = cache
    this.concurrency = options.concurrency ?? 2
    this.largeConcurrency = Math.min(this.concurrency, options.largeConcurrency ?? 1)
    this.smallCost = options.smallCost ?? 12_000_000
    this.maxWaiting = options.maxWaiting ?? 256
    this.maxLargeWaiting = options.maxLargeWaiting ?? 8
    this.clientCost = options.clientCost ?? 2 * MAX_OUTPUT_SIDE ** 2
    this.make = options.make ?? transformImage
  }

  /** What is running and waiting, by lane. */
  get stats() {
    return {
      running: { ...this.running },
      waiting: { small: this.small.length, large: this.large.length },
      made: this.made,
      dropped: this.dropped,
    }
  }

  /**
   * `file` is the stored name (`<sha1>-<w>x<h>.<ext>`); `read` gives its bytes, only when a transform
   * must be made (a cached answer never reads the original). Rejects with the CDN's 400, 429 or 503,
   * or ClientGoneError once `asker.signal` aborts before the transform is made.
   */
  async transform(
    file: string,
    search: URLSearchParams,
    accept: string,
    read: () => Buffer | null,
    asker: Asker = {},
  ): Promise<TransformedImage> {
    const params = parseImageParams(search)
    const format = outputFormat(params, file.split('.').pop() ?? '', accept)
    const key = transformKey(file, params, format)
    const result = { contentType: FORMAT_TYPES[format], format, params }
    const cached = this.cache.get(key)
    if (cached) return { bytes: cached, ...result }
    if (asker.signal?.aborted) throw new ClientGoneError()
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const job = this.jobs.get(key) ?? this.open(key, file, params, format, read, asker.client ?? '')
      const waiter: Waiter = { resolve, reject, signal: asker.signal }
      job.waiters.add(waiter)
      if (waiter.signal) {
        waiter.onAbort = () => this.leave(job, waiter)
        waiter.signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      this.dispatch()
    })
    return { bytes, ...result }
  }

  /** A new transform, in its lane's line; throws the CDN's refusal when it may not wait there. */
  private open(
    key: string,
    file: string,
    params: ImageParams,
    format: OutputFormat,
    read: () => Buffer | null,
    client: string,
  ): Job {
    const size = storedSize(file)
    if (size && size.width * size.height > MAX_INPUT_PIXELS)
      throw gatewayError(400, 'Bad Request', `The source image is over ${MAX_INPUT_PIXELS / 1e6} megapixels`)
    // A name without a size (none is stored so) is taken for the largest there is.
    const pixels = size ? transformPixels(params, size.width, size.height) : MAX_OUTPUT_SIDE ** 2
    const cost = pixels * FORMAT_COST[format]
    const lane: Lane = cost <= this.smallCost ? 'small' : 'large'
    const job: Job = { key, lane, cost, client, params, format, read, waiters: new Set(), running: false }
    if (lane === 'large') {
      const held = this.held.get(client) ?? 0
      // One transform alone is always allowed, however large: the cap bounds it.
      if (held > 0 && held + cost > this.clientCost) {
        throw gatewayError(
          429,
          'Too Many Requests',
          'Too many large image transforms at once from this client: wait for those under way, then try again',
          { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        )
      }
      if (this.large.length >= this.maxLargeWaiting) throw busy()
      this.held.set(client, held + cost)
      this.large.push(job)
    } else {
      if (this.small.length >= this.maxWaiting) {
        const costliest = this.small[this.small.length - 1]
        if (costliest.cost <= cost) throw busy()
        this.small.pop()
        this.settle(costliest, (waiter) => waiter.reject(busy()))
      }
      // Cheapest first, then first come: a page's thumbnails before a flood of dearer ones.
      const at = this.small.findIndex((other) => other.cost > cost)
      this.small.splice(at < 0 ? this.small.length : at, 0, job)
    }
    this.jobs.set(key, job)
    return job
  }

  /** A client went away: its transform leaves the line once nobody else waits for it. */
  private leave(job: Job, waiter: Waiter) {
    if (!job.waiters.delete(waiter)) return
    waiter.reject(new ClientGoneError())
    if (job.waiters.size > 0 || job.running) return
    const line = job.lane === 'small' ? this.small : this.large
    const index = line.indexOf(job)
    if (index >= 0) line.splice(index, 1)
    this.dropped++
    this.settle(job, () => {})
  }

  /** Starts what may start: small ones in any free slot, large ones within their share. */
  private dispatch() {
    while (this.running.small + this.running.large < this.concurrency) {
      const job = this.small.shift() ?? (this.running.large < this.largeConcurrency ? this.large.shift() : undefined)
      if (!job) return
      void this.run(job)
    }
  }

  private async run(job: Job) {
    job.running = true
    this.running[job.lane]++
    this.peakRunning = Math.max(this.peakRunning, this.running.small + this.running.large)
    this.peakRunningLarge = Math.max(this.peakRunningLarge, this.running.large)
    try {
      const source = job.read()
      if (!source) throw gatewayError(404, 'Not Found', 'Asset not found')
      const bytes = await this.make(source, job.params, job.format)
      this.cache.set(job.key, bytes)
      this.made++
      this.settle(job, (waiter) => waiter.resolve(bytes))
    } catch (error) {
      this.settle(job, (waiter) => waiter.reject(error))
    } finally {
      this.running[job.lane]--
      this.dispatch()
    }
  }

  /** Ends a transform: its waiters answered, its cost given back to its client, its key free. */
  private settle(job: Job, answer: (waiter: Waiter) => void) {
    if (this.jobs.get(job.key) === job) this.jobs.delete(job.key)
    if (job.lane === 'large') {
      const held = (this.held.get(job.client) ?? 0) - job.cost
      if (held > 0) this.held.set(job.client, held)
      else this.held.delete(job.client)
    }
    for (const waiter of job.waiters) {
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort)
      answer(waiter)
    }
    job.waiters.clear()
  }
}

const busy = () => gatewayError(503, 'Service Unavailable', 'Too many image transforms queued; try again')
