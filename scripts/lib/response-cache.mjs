// The production server's own shared cache, for what Next.js itself marks as shareable (public,
// s-maxage: prerendered pages, their RSC payloads, share images, sitemap): the finished response (policy
// completed, body compressed) is kept, per URL and per value of the request headers its Vary names,
// and sent again without going through Next.js's router and renderer. It is what a CDN in front would
// do, inside the origin, and it changes nothing a visitor sees:
// - a publish reaches it as Next.js's revalidation webhook (a POST through this server): any request
//   that may change content (every method but GET and HEAD) empties it once it is answered;
// - entries also expire after MAX_AGE_MS, for any other way Next.js could regenerate a page;
// - requests in draft mode (Next's bypass cookie) and responses that set cookies are never served or kept;
// - a conditional request whose ETag matches gets a 304 without the policy, as from Next.js.
// Bounded memory, least recently used out.

const MAX_AGE_MS = 5_000
const SAFE_METHODS = new Set(['GET', 'HEAD'])
const shareable = (cacheControl) => /\bs-maxage=/i.test(String(cacheControl ?? '')) && !/\b(private|no-store|no-cache)\b/i.test(String(cacheControl ?? ''))
const draftModeCookie = (request) => /(?:^|;\s*)__prerender_bypass=/.test(request.headers.cookie ?? '')

/** The Vary header's names, lower-case; null for `Vary: *` (never the same twice). */
function varyNames(vary) {
  const names = String(vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
  return names.includes('*') ? null : names.sort()
}

export class ResponseCache {
  constructor({ maxBytes = 64 * 1024 * 1024, negotiate = (value) => value ?? '', now = () => Date.now() } = {}) {
    this.maxBytes = maxBytes
    this.bytes = 0
    // url → { vary: string[], variants: Map<variantKey, entry> }
    this.byUrl = new Map()
    /** Maps Accept-Encoding to the encoding the server picks, so equivalent requests share an entry. */
    this.negotiate = negotiate
    this.now = now
  }

  variantKey(request, names) {
    return names.map((name) => (name === 'accept-encoding' ? this.negotiate(request.headers[name]) : String(request.headers[name] ?? ''))).join('\n')
  }

  clear() {
    this.byUrl.clear()
    this.bytes = 0
  }

  /** Answers `request` from the cache and returns true, or returns false (and remembers nothing). */
  serve(request, response) {
    if (!SAFE_METHODS.has(request.method) || draftModeCookie(request)) return false
    const record = this.byUrl.get(request.url)
    if (!record) return false
    const key = this.variantKey(request, record.vary)
    const entry = record.variants.get(key)
    if (!entry) return false
    if (this.now() > entry.expires) {
      this.remove(request.url, key)
      return false
    }
    // Most recently used last.
    this.byUrl.delete(request.url)
    this.byUrl.set(request.url, record)
    const etag = entry.headers.etag
    const match = request.headers['if-none-match']
    if (etag && match && match.split(',').some((value) => value.trim().replace(/^W\//, '') === String(etag).replace(/^W\//, ''))) {
      const { 'content-security-policy': _policy, 'content-length': _length, 'content-encoding': _encoding, 'content-type': _type, ...headers } = entry.headers
      response.writeHead(304, headers)
      response.end()
      return true
    }
    response.writeHead(entry.status, entry.headers)
    response.end(request.method === 'HEAD' ? undefined : entry.body)
    return true
  }

  /** Keeps what `response` finally sends for `request`, when shareable; empties the cache after any
   *  request that may change content. Wrap first, so it sees the bytes as they leave. */
  record(request, response) {
    if (!SAFE_METHODS.has(request.method)) {
      response.on('finish', () => this.clear())
      return
    }
    if (request.method !== 'GET' || draftModeCookie(request)) return
    const { write, end } = response
    let streamed = false
    response.write = (...args) => {
      streamed = true
      return write.apply(response, args)
    }
    response.end = (chunk, encoding, callback) => {
      Object.assign(response, { write, end })
      const wholeBody = !streamed && !response.headersSent && Buffer.isBuffer(chunk)
      const result = end.call(response, chunk, encoding, callback)
      // After end: the headers as they went out (the steps above may set them while ending).
      if (wholeBody && response.statusCode === 200) this.keep(request, response, chunk)
      return result
    }
  }

  keep(request, response, body) {
    const headers = response.getHeaders()
    if (!shareable(headers['cache-control']) || headers['set-cookie'] !== undefined) return
    const names = varyNames(headers.vary)
    if (!names) return
    let record = this.byUrl.get(request.url)
    if (!record || record.vary.join() !== names.join()) {
      if (record) for (const entry of record.variants.values()) this.bytes -= entry.body.length
      record = { vary: names, variants: new Map() }
      this.byUrl.set(request.url, record)
    }
    const key = this.variantKey(request, names)
    const known = record.variants.get(key)
    if (known) this.bytes -= known.body.length
    record.variants.set(key, { status: 200, headers, body, expires: this.now() + MAX_AGE_MS })
    this.bytes += body.length
    for (const [url, oldest] of this.byUrl) {
      if (this.bytes <= this.maxBytes) break
      for (const entry of oldest.variants.values()) this.bytes -= entry.body.length
      this.byUrl.delete(url)
    }
  }

  remove(url, key) {
    const record = this.byUrl.get(url)
    const entry = record?.variants.get(key)
    if (!entry) return
    this.bytes -= entry.body.length
    record.variants.delete(key)
    if (record.variants.size === 0) this.byUrl.delete(url)
  }
}
