// Compression for the production server, done once per version of a body rather than on every request.
// A static page, its RSC payload and the build's scripts and stylesheets are the same bytes for every
// visitor until a publish or a deploy changes them: their brotli and gzip forms are kept by the body's
// digest (bounded memory, least recently used out). Private or no-store responses (the inbox, the API,
// draft mode) are compressed each time, faster, and never kept.
import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { contentTypeOf, holdResponse, isBodyless } from './hold-response.mjs'

const COMPRESSIBLE = /^\s*(text\/|application\/(?:json|javascript|xml|manifest\+json|rss\+xml)|image\/svg\+xml|text\/x-component)/i
const MIN_BYTES = 1024
const STREAMED = /^\s*text\/event-stream/i

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function negotiateEncoding(acceptEncoding) {
  const accepted = new Map()
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean)
    accepted.set(name, q === undefined ? 1 : Number(q))
  }
  const allowed = (name) => (accepted.get(name) ?? (accepted.has('*') ? accepted.get('*') : 0)) > 0
  if (allowed('br')) return 'br'
  if (allowed('gzip')) return 'gzip'
  return null
}

/** Compressed bodies by encoding and body digest, with a byte budget. */
export class CompressionMemo {
  constructor(maxBytes = 64 * 1024 * 1024) {
    this.maxBytes = maxBytes
    this.bytes = 0
    this.entries = new Map()
  }

  get(encoding, body) {
    const key = `${encoding}:${createHash('sha1').update(body).digest('base64')}`
    const known = this.entries.get(key)
    if (known) {
      // Most recently used last: the Map's insertion order is the eviction order.
      this.entries.delete(key)
      this.entries.set(key, known)
      return known
    }
    const compressed = compress(encoding, body, 'thorough')
    if (compressed.length > this.maxBytes) return compressed
    this.entries.set(key, compressed)
    this.bytes += compressed.length
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldKey)
      this.bytes -= old.length
    }
    return compressed
  }
}

function compress(encoding, body, effort) {
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

const keepable = (cacheControl) => !/\b(private|no-store)\b/i.test(String(cacheControl ?? ''))

function appendVary(response, name) {
  const vary = String(response.getHeader('vary') ?? '')
  if (!vary.split(',').some((entry) => entry.trim().toLowerCase() === name.toLowerCase() || entry.trim() === '*')) {
    response.setHeader('Vary', vary ? `${vary}, ${name}` : name)
  }
}

/** A compressed body is another representation: its ETag becomes weak (as nginx does), which Next's
 *  own If-None-Match check still matches, so revalidation keeps answering 304. */
const weakened = (etag) => (typeof etag === 'string' && !etag.startsWith('W/') ? `W/${etag}` : etag)

/** Makes `response` send a compressible body (at least 1 KB) compressed, in the best encoding the
 *  request accepts, from `memo` when the response may be kept. */
export function compressResponse(request, response, memo) {
  const encoding = negotiateEncoding(request.headers['accept-encoding'])
  holdResponse(response, {
    decide(headers) {
      const type = contentTypeOf(response, headers)
      // A live stream never ends: holding its body would hold it for ever (it passes as it is written).
      if (!COMPRESSIBLE.test(type) || STREAMED.test(type) || response.getHeader('content-encoding')) return false
      appendVary(response, 'Accept-Encoding')
      if (!encoding) return false
      // A 304 carries the validator of what the client holds: the compressed, weak one.
      if (response.statusCode === 304) response.setHeader('ETag', weakened(response.getHeader('etag')))
      return !isBodyless(request, response)
    },
    finish(body) {
      if (body.length < MIN_BYTES) return body
      const compressed = keepable(response.getHeader('cache-control')) ? memo.get(encoding, body) : compress(encoding, body, 'fast')
      response.setHeader('Content-Encoding', encoding)
      const etag = response.getHeader('etag')
      if (etag !== undefined) response.setHeader('ETag', weakened(etag))
      response.setHeader('Content-Length', compressed.length)
      return compressed
    },
  })
}
