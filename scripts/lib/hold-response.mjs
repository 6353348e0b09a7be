// Holding back a response's body until it ends, for the production server's steps that need the whole
// body before anything is sent (the page's policy, its compression). Each step wraps the response in
// turn; a step that does not want a response restores the methods it replaced, so that response
// streams through untouched.

/**
 * `decide(headers)` runs once, when the headers are about to go out (writeHead, flushHeaders or the
 * first write), with the headers given to writeHead if any; it may change the response's headers and
 * returns true to hold the body. `finish(body)` then gets the whole body as one Buffer, may set
 * headers, and returns the body to send.
 */
export function holdResponse(response, { decide, finish }) {
  const original = { writeHead: response.writeHead, write: response.write, end: response.end, flushHeaders: response.flushHeaders, flush: response.flush }
  let mode = 'undecided' // → 'hold' | 'pass'
  const chunks = []

  const restore = () => Object.assign(response, original)
  const decideOnce = (headers) => {
    if (mode !== 'undecided') return
    mode = decide(headers) ? 'hold' : 'pass'
    if (mode === 'pass') restore()
  }
  const toBuffer = (chunk, encoding) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8'))

  response.writeHead = function writeHead(statusCode, ...rest) {
    const headers = rest.find((argument) => argument && typeof argument === 'object')
    response.statusCode = statusCode
    decideOnce(headers && !Array.isArray(headers) ? headers : undefined)
    if (mode === 'pass') return original.writeHead.call(response, statusCode, ...rest)
    // Held back: its headers join the response's, so later steps can still change them.
    if (typeof rest[0] === 'string') response.statusMessage = rest[0]
    if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) response.setHeader(headers[i], headers[i + 1])
    else if (headers) for (const [name, value] of Object.entries(headers)) response.setHeader(name, value)
    return response
  }
  response.flushHeaders = function flushHeaders() {
    decideOnce()
    if (mode === 'pass') return original.flushHeaders.call(response)
  }
  if (typeof original.flush === 'function') {
    response.flush = function flush() {
      if (mode === 'pass') return original.flush.call(response)
    }
  }
  response.write = function write(chunk, encoding, callback) {
    decideOnce()
    if (mode === 'pass') return original.write.call(response, chunk, encoding, callback)
    if (chunk != null && chunk.length) chunks.push(toBuffer(chunk, encoding))
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') process.nextTick(done)
    return true
  }
  response.end = function end(chunk, encoding, callback) {
    decideOnce()
    if (mode === 'pass') return original.end.call(response, chunk, encoding, callback)
    if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk]
    if (chunk != null && chunk.length) chunks.push(toBuffer(chunk, encoding))
    if (typeof encoding === 'function') callback = encoding
    restore()
    const body = finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    if (response.getHeader('content-length') !== undefined) response.setHeader('Content-Length', body.length)
    return original.end.call(response, body, callback)
  }
}

/** The content type a response is about to be sent with: the one given to writeHead, else the one set. */
export function contentTypeOf(response, headers) {
  const given = headers && Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')
  const value = given ? given[1] : response.getHeader('content-type')
  return typeof value === 'string' ? value : ''
}

/** No body will follow these, whatever the handler writes. */
export const isBodyless = (request, response) => request.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304
