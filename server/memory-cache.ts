import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { MissCoalescer } from './miss-coalescer.ts'
import {
  headerList,
  headerText,
  inDraftMode,
  RSC_REQUEST_HEADERS,
  type ArrivedRequest,
  type ResponseHead,
  type Stage,
} from './stage.ts'

/*
 * The production server's memory cache of what Next.js marks shareable (public, s-maxage): the finished
 * response (policy completed, body compressed), per URL and per variant, sent again for 5 s without
 * Next.js, as a CDN in front would (docs/server.md). Its rules, each held by a test:
 * - a publish empties it (clear(), on the pipeline's one signal); what Next.js was rendering then is
 *   not kept; nothing else empties it;
 * - a page Next.js sends stale (`x-nextjs-cache: STALE`), an answer that sets cookies, and anything
 *   Next.js could read its draft-mode cookie from (lib/security/request-cookies.ts) are never kept;
 * - a variant is chosen by the request as it arrived (ArrivedRequest), the RSC headers always in the key;
 * - concurrent misses share one render (miss-coalescer.ts);
 * - everything an entry holds counts toward its byte budget; entries go oldest first.
 * Why each rule: docs/decisions.md, « The server's memory cache ».
 */

const MAX_AGE_MS = 5_000
/** Sweeps without a request come at most this often. */
const MIN_SWEEP_DELAY_MS = 1_000
/** What the objects, Map and Set slots around an entry cost, roughly, beyond the bytes counted. */
const ENTRY_OVERHEAD = 512
const SAFE_METHODS = new Set(['GET', 'HEAD'])

const shareable = (headers: OutgoingHttpHeaders) => {
  const cacheControl = headerText(headers, 'cache-control')
  return /\bs-maxage=/i.test(cacheControl) && !/\b(private|no-store|no-cache)\b/i.test(cacheControl)
}
const size = (text: string) => Buffer.byteLength(text)

type Entry = {
  key: string
  url: string
  status: number
  headers: OutgoingHttpHeaders
  body: Buffer
  expires: number
  bytes: number
}
/** Per URL: the request headers its variants are keyed by, and the keys of those variants. */
type Variants = { names: string[]; keys: Set<string>; bytes: number }

export type MemoryCacheOptions = {
  maxBytes?: number
  /** Maps Accept-Encoding to the encoding the server picks, so equivalent requests share an entry. */
  negotiate?: (acceptEncoding: string | string[] | undefined) => string | null
  /** A clock in ms (tests pass their own). */
  now?: () => number
  /** How long a request waits for an identical one being rendered (miss-coalescer.ts's COALESCE_WAIT_MS). */
  coalesceWaitMs?: number
}

export class MemoryCache {
  readonly maxBytes: number
  readonly #negotiate: (acceptEncoding: string | string[] | undefined) => string | null
  readonly #now: () => number
  /** The requests it could not answer, on their way to Next.js. */
  readonly #misses: MissCoalescer
  #bytes = 0
  /** By key, in the order they came in, which is the order they expire. */
  readonly #entries = new Map<string, Entry>()
  readonly #byUrl = new Map<string, Variants>()
  /** Sweeps what expired while no request came in (unref'd: it never keeps the process alive). */
  #sweeper: ReturnType<typeof setTimeout> | undefined

  constructor({
    maxBytes = 64 * 1024 * 1024,
    negotiate = (value) => (Array.isArray(value) ? value.join(', ') : (value ?? '')),
    now = () => performance.now(),
    coalesceWaitMs,
  }: MemoryCacheOptions = {}) {
    this.maxBytes = maxBytes
    this.#negotiate = negotiate
    this.#now = now
    this.#misses = new MissCoalescer({ negotiate, now, passMs: MAX_AGE_MS, waitMs: coalesceWaitMs })
  }

  /** The bytes held, as counted against maxBytes. */
  get bytes(): number {
    return this.#bytes
  }

  /** How many responses are held. */
  get size(): number {
    return this.#entries.size
  }

  /** Empties it (a verified publish): renders under way are not kept, and new requests no longer wait for them. */
  clear(): void {
    clearTimeout(this.#sweeper)
    this.#sweeper = undefined
    this.#entries.clear()
    this.#byUrl.clear()
    this.#bytes = 0
    this.#misses.clear()
  }

  /**
   * Answers `request` from the cache, or hands it to Next.js by calling `forward`: at once, or once an
   * identical GET being rendered has been answered (and then only if that answer is not the one it
   * needs). `forward` must send the response through this cache's stage (the pipeline's last).
   */
  handle(request: ArrivedRequest, response: ServerResponse, forward: () => void): void {
    if (this.serve(request, response)) return
    this.#misses.handle(request, response, () => this.serve(request, response), forward)
  }

  /**
   * The pipeline's word once Next.js has written the head of a forwarded response: its waiters are let
   * go at once when it cannot be kept (or its body is not held, as for an event stream, which never ends).
   */
  responding(request: ArrivedRequest, head: ResponseHead, bodyHeld: boolean): void {
    if (!bodyHeld || !this.#keepable(head.status, head.headers, request)) this.#misses.land(request, 'pass')
  }

  /** Answers `request` from the cache and returns true, or returns false (and remembers nothing). */
  serve(request: ArrivedRequest, response: ServerResponse): boolean {
    if (!SAFE_METHODS.has(request.method) || inDraftMode(request)) return false
    const variants = this.#byUrl.get(request.url)
    if (!variants) return false
    const key = this.#key(request, variants.names)
    const entry = this.#entries.get(key)
    if (!entry) return false
    if (this.#now() >= entry.expires) {
      this.#remove(entry)
      return false
    }
    const etag = entry.headers.etag
    const match = headerText(request.headers, 'if-none-match')
    if (
      typeof etag === 'string' &&
      match &&
      match.split(',').some((value) => value.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''))
    ) {
      const {
        'content-security-policy': _policy,
        'content-length': _length,
        'content-encoding': _encoding,
        'content-type': _type,
        ...headers
      } = entry.headers
      response.writeHead(304, headers)
      response.end()
      return true
    }
    response.writeHead(entry.status, entry.headers)
    response.end(request.method === 'HEAD' ? undefined : entry.body)
    return true
  }

  /** The pipeline's last stage: keeps a shareable answer to a GET as it goes out, and lets its waiters go. */
  readonly stage: Stage = {
    name: 'shareable-response cache',
    wantsBody: (head, request) => this.#keepable(head.status, head.headers, request),
    apply: (response, request) => {
      const keepable = response.body !== null && this.#keepable(response.status, response.headers, request)
      // Rendered before a publish emptied the cache: it may show what the publish changed.
      const current = !this.#misses.outdated(request)
      const kept = keepable && current && this.#keep(request, response.headers, response.body!)
      this.#misses.land(request, kept ? 'kept' : keepable ? 'gone' : 'pass')
    },
  }

  #keepable(status: number, headers: OutgoingHttpHeaders, request: ArrivedRequest): boolean {
    return (
      request.method === 'GET' &&
      status === 200 &&
      !inDraftMode(request) &&
      shareable(headers) &&
      headers['set-cookie'] === undefined &&
      // A page Next.js sent stale while it renders the new one (after a publish, or while the Content
      // Lake is down): the next request must reach Next.js again to get the new version once it is there.
      !/^stale$/i.test(headerText(headers, 'x-nextjs-cache'))
    )
  }

  /** The request headers a URL's variants are told apart by: those Vary names and the RSC ones; null for `Vary: *`. */
  #names(headers: OutgoingHttpHeaders): string[] | null {
    const vary = headerList(headers, 'vary')
    return vary.includes('*') ? null : [...new Set([...vary, ...RSC_REQUEST_HEADERS])].sort()
  }

  #key(request: ArrivedRequest, names: string[]): string {
    const values = names.map((name) =>
      name === 'accept-encoding' ? (this.#negotiate(request.headers[name]) ?? '') : headerText(request.headers, name),
    )
    // Neither a URL nor a header value can hold a line break.
    return `${request.url}\n${values.join('\n')}`
  }

  /** Keeps the answer; false when it cannot be (`Vary: *`, larger than the whole budget). */
  #keep(request: ArrivedRequest, outgoingHeaders: OutgoingHttpHeaders, body: Buffer): boolean {
    const names = this.#names(outgoingHeaders)
    if (!names) return false
    const key = this.#key(request, names)
    // A copy, with the length of the body as it is kept (whatever the stages before did).
    const headers: OutgoingHttpHeaders = { ...outgoingHeaders, 'content-length': body.length }
    const now = this.#now()
    const entry: Entry = {
      key,
      url: request.url,
      status: 200,
      headers,
      body,
      expires: now + MAX_AGE_MS,
      bytes: ENTRY_OVERHEAD + size(key) + headerBytes(headers) + body.length,
    }
    const urlBytes = ENTRY_OVERHEAD + size(request.url) + size(names.join())
    if (entry.bytes + urlBytes > this.maxBytes) return false
    this.#sweep(now)
    const earlier = this.#byUrl.get(request.url)
    // Vary changed for this URL (a new deploy): its earlier variants were told apart by other headers.
    if (earlier && earlier.names.join() !== names.join())
      for (const old of [...earlier.keys]) this.#remove(this.#entries.get(old))
    this.#remove(this.#entries.get(key))
    let variants = this.#byUrl.get(request.url)
    if (!variants) {
      variants = { names, keys: new Set(), bytes: urlBytes }
      this.#byUrl.set(request.url, variants)
      this.#bytes += variants.bytes
    }
    this.#entries.set(key, entry)
    variants.keys.add(key)
    this.#bytes += entry.bytes
    // Oldest first: the first to expire anyway.
    for (const oldest of this.#entries.values()) {
      if (this.#bytes <= this.maxBytes) break
      this.#remove(oldest)
    }
    this.#sweepLater()
    return true
  }

  /**
   * After a burst, nothing may come in for a while: the entries that expired meanwhile go when the
   * oldest's time is over, not at the next request (a flood's last 64 MB would otherwise stay).
   */
  #sweepLater() {
    if (this.#sweeper || this.#entries.size === 0) return
    const oldest = this.#entries.values().next().value!
    this.#sweeper = setTimeout(
      () => {
        this.#sweeper = undefined
        this.#sweep(this.#now())
        this.#sweepLater()
      },
      Math.max(MIN_SWEEP_DELAY_MS, oldest.expires - this.#now()),
    )
    this.#sweeper.unref()
  }

  /** Drops the entries whose time is over, oldest first, up to the first that is still fresh. */
  #sweep(now: number) {
    for (const entry of this.#entries.values()) {
      if (entry.expires > now) break
      this.#remove(entry)
    }
  }

  #remove(entry: Entry | undefined) {
    if (!entry || !this.#entries.delete(entry.key)) return
    this.#bytes -= entry.bytes
    const variants = this.#byUrl.get(entry.url)
    if (!variants) return
    variants.keys.delete(entry.key)
    if (variants.keys.size === 0) {
      this.#byUrl.delete(entry.url)
      this.#bytes -= variants.bytes
    }
  }
}

function headerBytes(headers: OutgoingHttpHeaders): number {
  let bytes = 0
  for (const [name, value] of Object.entries(headers))
    bytes += 16 + size(name) + size(headerText({ [name]: value }, name))
  return bytes
}
