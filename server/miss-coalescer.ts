import type { ServerResponse } from 'node:http'
import { headerText, inDraftMode, RSC_REQUEST_HEADERS, type ArrivedRequest } from './stage.ts'

/*
 * What the memory cache (memory-cache.ts) does with the requests it cannot answer. Concurrent misses
 * share one render: while a GET for a URL is being answered by Next.js, other GETs for the same URL,
 * RSC headers and negotiated encoding wait for it, and are answered from the kept entry if that answer
 * could be kept (and their variant is the one kept: Vary may name more headers than the wait was keyed
 * by). Otherwise they go to Next.js themselves, as do they all after COALESCE_WAIT_MS (a render that
 * hangs holds nobody for long); an answer that could not be kept is remembered a while, so the next
 * requests for it go to Next.js at once instead of queueing behind each other.
 *
 * The answers that could not be kept are remembered within a budget of their own (PASS_BYTES), each
 * as long as a kept entry lives: the oldest go first, when they expire and when the budget is full.
 * A publish empties the cache and clears this too (clear()): renders under way no longer hold anyone
 * new, and outdated() tells the cache which answers were rendered across it (it keeps none of them).
 */

/** The longest a request waits for an identical one being rendered before it goes to Next.js itself. */
const COALESCE_WAIT_MS = 5_000
/** What the keys of answers that could not be kept may take, all together, and the overhead of each. */
const PASS_BYTES = 1024 * 1024
const PASS_OVERHEAD = 64

/** A GET being answered by Next.js that identical ones wait for; `landed` once they were let go. */
type Flight = { key: string; landed: boolean; release: () => void; released: Promise<void>; timer?: NodeJS.Timeout }
/** A request handed to Next.js: how many times the cache had been emptied then, and the flight it leads. */
type Forwarded = { generation: number; flight: Flight | null }
/** How a render ended for those waiting on it: kept, not keepable (remembered as such), or not kept this time. */
export type Landing = 'kept' | 'pass' | 'gone'

export type MissCoalescerOptions = {
  /** Maps Accept-Encoding to the encoding the server picks, so equivalent requests wait for one render. */
  negotiate: (acceptEncoding: string | string[] | undefined) => string | null
  /** A clock in ms. */
  now: () => number
  /** How long an answer that could not be kept is believed so: as long as a kept entry lives. */
  passMs: number
  /** How long a request waits for an identical one being rendered (COALESCE_WAIT_MS). */
  waitMs?: number
}

export class MissCoalescer {
  readonly #negotiate: (acceptEncoding: string | string[] | undefined) => string | null
  readonly #now: () => number
  readonly #passMs: number
  readonly #waitMs: number
  /** How many times the cache was emptied: an answer rendered across a purge is not kept. */
  #generation = 0
  /** The GETs being rendered, by the key identical ones wait under (#flightKey). */
  readonly #flights = new Map<string, Flight>()
  readonly #forwarded = new WeakMap<ArrivedRequest, Forwarded>()
  /** Flight keys whose last answer could not be kept, and until when that is believed (oldest first). */
  readonly #passes = new Map<string, number>()
  #passBytes = 0

  constructor({ negotiate, now, passMs, waitMs = COALESCE_WAIT_MS }: MissCoalescerOptions) {
    this.#negotiate = negotiate
    this.#now = now
    this.#passMs = passMs
    this.#waitMs = waitMs
  }

  /** The cache was emptied (a verified publish): renders under way are outdated, and new requests no longer wait for them. */
  clear(): void {
    this.#generation++
    // Their waiters still wait for them (then go to Next.js); newcomers start a flight of their own.
    this.#flights.clear()
    this.#passes.clear()
    this.#passBytes = 0
  }

  /**
   * Hands `request`, which the cache could not answer, to Next.js by calling `forward`: at once, or once
   * an identical GET being rendered has been answered, and then only if `serve` (the cache, asked again)
   * cannot answer it. The answer must then be reported to land().
   */
  handle(request: ArrivedRequest, response: ServerResponse, serve: () => boolean, forward: () => void): void {
    const key = this.#flightKey(request)
    const flight = key === null ? undefined : this.#flights.get(key)
    if (flight) {
      let gone = false
      response.once('close', () => (gone = true))
      void flight.released.then(() => {
        if (!gone && !serve()) this.#forward(request, response, null, forward)
      })
      return
    }
    // A conditional request may get a 304, which keeps nothing: it waits for others, leads none.
    const leads = key !== null && !headerText(request.headers, 'if-none-match') && !this.#passing(key)
    this.#forward(request, response, leads ? key : null, forward)
  }

  /** What became of the answer to a forwarded request: lets the requests waiting on it go (once). */
  land(request: ArrivedRequest, outcome: Landing): void {
    const flight = this.#forwarded.get(request)?.flight
    if (flight) this.#land(flight, outcome)
  }

  /** Whether `request` was handed to Next.js before the cache was last emptied: its answer may show what the publish changed. */
  outdated(request: ArrivedRequest): boolean {
    const forwarded = this.#forwarded.get(request)
    return forwarded !== undefined && forwarded.generation !== this.#generation
  }

  #forward(request: ArrivedRequest, response: ServerResponse, leadKey: string | null, forward: () => void) {
    let flight: Flight | null = null
    if (leadKey !== null) {
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      const created: Flight = { key: leadKey, landed: false, release, released }
      created.timer = setTimeout(() => this.#land(created, 'gone'), this.#waitMs)
      created.timer.unref()
      this.#flights.set(leadKey, created)
      // An answer that never reaches the last stage (the client left, Next.js failed) lets them go too.
      response.once('close', () => this.#land(created, 'gone'))
      flight = created
    }
    this.#forwarded.set(request, { generation: this.#generation, flight })
    forward()
  }

  /** Lets a flight's waiters go (once): 'pass' remembers that its answer cannot be kept. */
  #land(flight: Flight, outcome: Landing) {
    if (flight.landed) return
    flight.landed = true
    clearTimeout(flight.timer)
    if (this.#flights.get(flight.key) === flight) this.#flights.delete(flight.key)
    if (outcome === 'pass') this.#pass(flight.key)
    flight.release()
  }

  /**
   * What identical GETs wait under: the URL, the headers that change Next.js's answer and the encoding,
   * as they arrived (null: none wait). Besides the RSC ones, x-middleware-prefetch: Next.js answers it
   * with an empty {} nobody may keep, which must not be remembered as the page's answer.
   */
  #flightKey(request: ArrivedRequest): string | null {
    if (request.method !== 'GET' || inDraftMode(request)) return null
    const values = [...RSC_REQUEST_HEADERS, 'x-middleware-prefetch'].map((name) => headerText(request.headers, name))
    return `${request.url}\n${values.join('\n')}\n${this.#negotiate(request.headers['accept-encoding']) ?? ''}`
  }

  #passing(key: string): boolean {
    const until = this.#passes.get(key)
    return until !== undefined && until > this.#now()
  }

  #pass(key: string) {
    const now = this.#now()
    const bytes = (name: string) => PASS_OVERHEAD + Buffer.byteLength(name)
    if (this.#passes.delete(key)) this.#passBytes -= bytes(key)
    if (bytes(key) > PASS_BYTES) return
    this.#passes.set(key, now + this.#passMs)
    this.#passBytes += bytes(key)
    // Oldest first: expired, or the first to expire when the budget is full.
    for (const [old, until] of this.#passes) {
      if (until > now && this.#passBytes <= PASS_BYTES) break
      this.#passes.delete(old)
      this.#passBytes -= bytes(old)
    }
  }
}
