// Completes the Content-Security-Policy of each HTML response with the hashes of the inline scripts
// (and style attributes) of that very HTML, before anything is sent (see lib/content-security-policy.ts).
// Pages stay static and served from Next.js's cache: this reads what Next.js wrote, whether at build
// time or when a publish regenerated the page, so the hashes always follow the HTML.
import { withInlineHashes } from '../../lib/content-security-policy.ts'

// Completed policies by ETag: a cached page is hashed once, not on every request. Bounded, oldest out.
const completed = new Map()
const MAX_COMPLETED = 500

function completedPolicy(policy, body, etag) {
  const key = etag ? `${etag}\n${policy}` : null
  const known = key && completed.get(key)
  if (known) return known
  const result = withInlineHashes(policy, body.toString('utf8'))
  if (key) {
    if (completed.size >= MAX_COMPLETED) completed.delete(completed.keys().next().value)
    completed.set(key, result)
  }
  return result
}

const isHtml = (contentType) => typeof contentType === 'string' && /^\s*text\/html\b/i.test(contentType)

/**
 * Makes `response` hold back an HTML body until it ends, then set its policy and send it in one piece
 * (any other response passes straight through). `draftModePolicy` gives the policy for a request in
 * draft mode (editors previewing), or null.
 */
export function completePolicyOfHtml(request, response, draftModePolicy) {
  const original = { writeHead: response.writeHead, write: response.write, end: response.end, flushHeaders: response.flushHeaders, flush: response.flush }
  let mode = 'undecided' // → 'buffer' | 'pass'
  const chunks = []

  const restore = () => Object.assign(response, original)
  const decide = (headers) => {
    if (mode !== 'undecided') return
    const given = headers && Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')
    const contentType = given ? given[1] : response.getHeader('content-type')
    const bodyless = request.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304
    mode = isHtml(contentType) && !bodyless ? 'buffer' : 'pass'
    // A 304 updates the headers a browser stored with the page: the stored policy, completed for that
    // very body (same ETag), must stay, not be replaced by the policy without its hashes.
    if (response.statusCode === 304) response.removeHeader('content-security-policy')
    if (mode === 'pass') restore()
  }
  const toBuffer = (chunk, encoding) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8'))

  response.writeHead = function writeHead(statusCode, ...rest) {
    const headers = rest.find((argument) => argument && typeof argument === 'object')
    decide(headers && !Array.isArray(headers) ? headers : undefined)
    if (mode === 'pass') return original.writeHead.call(response, statusCode, ...rest)
    // Held back: its headers join the response's, so the policy can still be replaced.
    response.statusCode = statusCode
    if (typeof rest[0] === 'string') response.statusMessage = rest[0]
    if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) response.setHeader(headers[i], headers[i + 1])
    else if (headers) for (const [name, value] of Object.entries(headers)) response.setHeader(name, value)
    return response
  }
  response.flushHeaders = function flushHeaders() {
    decide()
    if (mode === 'pass') return original.flushHeaders.call(response)
  }
  if (typeof original.flush === 'function') {
    response.flush = function flush() {
      if (mode === 'pass') return original.flush.call(response)
    }
  }
  response.write = function write(chunk, encoding, callback) {
    decide()
    if (mode === 'pass') return original.write.call(response, chunk, encoding, callback)
    if (chunk != null && chunk.length) chunks.push(toBuffer(chunk, encoding))
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') process.nextTick(done)
    return true
  }
  response.end = function end(chunk, encoding, callback) {
    decide()
    if (mode === 'pass') return original.end.call(response, chunk, encoding, callback)
    if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk]
    if (chunk != null && typeof chunk !== 'function' && chunk.length) chunks.push(toBuffer(chunk, encoding))
    if (typeof encoding === 'function') callback = encoding
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    restore()
    const policy = draftModePolicy ?? response.getHeader('content-security-policy')
    if (typeof policy === 'string') {
      const etag = response.getHeader('etag')
      response.setHeader('Content-Security-Policy', completedPolicy(policy, body, typeof etag === 'string' ? etag : null))
    }
    if (response.getHeader('content-length') !== undefined) response.setHeader('Content-Length', body.length)
    return original.end.call(response, body, callback)
  }
}
