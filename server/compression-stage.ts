import { createHash } from 'node:crypto'
import type { OutgoingHttpHeaders } from 'node:http'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { headerList, headerText, type ResponseHead, type Stage } from './stage.ts'

/*
 * Compression for the production server (Next.js's own is off: it would compress before the policy
 * stage could read the HTML), done once per version of a body rather than on every request. A static
 * page, its RSC payload and the build's scripts and stylesheets are the same bytes for every visitor
 * until a publish or a deploy changes them: their brotli and gzip forms are kept by the body's digest
 * (bounded memory, least recently used out). Private or no-store responses (the inbox, the API, draft
 * mode) are compressed each time, faster, and never kept.
 */

const COMPRESSIBLE =
  /^\s*(text\/|application\/(?:json|javascript|xml|manifest\+json|rss\+xml)|image\/svg\+xml|text\/x-component)/i
const MIN_BYTES = 1024

export type Encoding = 'br' | 'gzip'

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const accepted = new Map<string, number>()
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean)
    accepted.set(name, q === undefined ? 1 : Number(q))
  }
  const allowed = (name: string) => (accepted.get(name) ?? (accepted.has('*') ? (accepted.get('*') as number) : 0)) > 0
  if (allowed('br')) return 'br'
  if (allowed('gzip')) return 'gzip'
  return null
}

/** Compressed bodies by encoding and body digest, with a byte budget (keys included). */
export class CompressionMemo {
  readonly maxBytes: number
  bytes = 0
  /** Most recently used last: the Map's insertion order is the eviction order. */
  readonly entries = new Map<string, Buffer>()

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.maxBytes = maxBytes
  }

  get(encoding: Encoding, body: Buffer): Buffer {
    const key = `${encoding}:${createHash('sha1').update(body).digest('base64')}`
    const known = this.entries.get(key)
    if (known) {
      this.entries.delete(key)
      this.entries.set(key, known)
      return known
    }
    const compressed = compress(encoding, body, 'thorough')
    const size = key.length + compressed.length
    if (size > this.maxBytes) return compressed
    this.entries.set(key, compressed)
    this.bytes += size
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldKey)
      this.bytes -= oldKey.length + old.length
    }
    return compressed
  }
}

function compress(encoding: Encoding, body: Buffer, effort: 'thorough' | 'fast'): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: effort === 'thorough' ? 9 : 6 })
  return brotliCompressSync(body, {
    params: {
      // Quality 11 costs ten times 9 for ~3 % smaller pages: 9 keeps a new version's first request short.
      [constants.BROTLI_PARAM_QUALITY]: effort === 'thorough' ? 9 : 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}

const compressible = (head: ResponseHead) =>
  COMPRESSIBLE.test(headerText(head.headers, 'content-type')) && head.headers['content-encoding'] === undefined
const keepable = (headers: OutgoingHttpHeaders) => !/\b(private|no-store)\b/i.test(headerText(headers, 'cache-control'))

function appendVary(headers: OutgoingHttpHeaders, name: string) {
  const listed = headerList(headers, 'vary')
  if (listed.includes(name.toLowerCase()) || listed.includes('*')) return
  const vary = headerText(headers, 'vary')
  headers.vary = vary ? `${vary}, ${name}` : name
}

/** A compressed body is another representation: its ETag becomes weak (as nginx does), which Next's
 *  own If-None-Match check still matches, so revalidation keeps answering 304. */
function weakenETag(headers: OutgoingHttpHeaders) {
  const etag = headers.etag
  if (typeof etag === 'string' && !etag.startsWith('W/')) headers.etag = `W/${etag}`
}

/** Sends a compressible body (at least 1 KB) compressed, in the best encoding the request accepts, from
 *  `memo` when the response may be kept. */
export function compressionStage(memo: CompressionMemo): Stage {
  return {
    name: 'compression',
    wantsBody: (head, request) => compressible(head) && negotiateEncoding(request.headers['accept-encoding']) !== null,
    apply(response, request) {
      if (!compressible(response)) return
      // Whether or not this one is compressed, another request for the same URL may be.
      appendVary(response.headers, 'Accept-Encoding')
      const encoding = negotiateEncoding(request.headers['accept-encoding'])
      if (!encoding) return
      // A 304 carries the validator of what the client holds: the compressed, weak one.
      if (response.status === 304) return weakenETag(response.headers)
      if (response.body === null || response.body.length < MIN_BYTES) return
      const compressed = keepable(response.headers)
        ? memo.get(encoding, response.body)
        : compress(encoding, response.body, 'fast')
      response.body = compressed
      response.headers['content-encoding'] = encoding
      response.headers['content-length'] = compressed.length
      weakenETag(response.headers)
    },
  }
}
