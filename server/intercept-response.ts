import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Outgoing, ResponseHead } from './stage.ts'

/*
 * The one place the production server patches Next's ServerResponse. Next writes a response however
 * suits it (setHeader then end, writeHead with headers, flushHeaders then chunks); here that becomes a
 * single decision and a single transformation:
 * - when the headers are about to go out (writeHead, flushHeaders, the first write or end), `decide`
 *   says how the body flows: 'hold' (kept back until it ends), 'stream' (sent as written) or
 *   'untouched' (as if nothing were here);
 * - `transform` then runs once, before anything is sent: on the whole body when held, on the headers
 *   alone (body null) when streamed.
 * Then the original methods are back and the response goes out.
 */

export type Flow = 'hold' | 'stream' | 'untouched'

export type Interception = {
  decide(head: ResponseHead): Flow
  transform(response: Outgoing): void
}

type Method = (...args: unknown[]) => unknown

export function interceptResponse(response: ServerResponse, { decide, transform }: Interception): void {
  // The methods Next calls, as ServerResponse has them; put back once the flow is decided, or at the end.
  const original = {
    writeHead: response.writeHead,
    write: response.write,
    end: response.end,
    flushHeaders: response.flushHeaders,
  }
  const call = (method: keyof typeof original, args: unknown[]) =>
    Reflect.apply(original[method] as Method, response, args)
  const restore = () => Object.assign(response, original)
  let flow: Flow | undefined
  const chunks: Buffer[] = []

  /** Runs the stages over the response as it stands, and writes back what they changed. */
  const transformed = (body: Buffer | null): Buffer | null => {
    const outgoing: Outgoing = { status: response.statusCode, headers: { ...response.getHeaders() }, body }
    transform(outgoing)
    response.statusCode = outgoing.status
    replaceHeaders(response, outgoing.headers)
    return outgoing.body
  }
  const decideOnce = () => {
    if (flow !== undefined) return
    flow = decide({ status: response.statusCode, headers: { ...response.getHeaders() } })
    if (flow === 'hold') return
    restore()
    if (flow === 'stream') transformed(null)
  }

  response.writeHead = function writeHead(statusCode: number, ...rest: unknown[]) {
    if (flow === undefined || flow === 'hold') {
      // Its status and headers join the response's, so that the decision and the stages see them.
      response.statusCode = statusCode
      if (typeof rest[0] === 'string') response.statusMessage = rest[0]
      setHeaders(
        response,
        rest.find((argument) => typeof argument === 'object' && argument !== null),
      )
      decideOnce()
    }
    if (flow === 'hold') return response
    return call('writeHead', [response.statusCode, response.statusMessage])
  } as ServerResponse['writeHead']

  response.flushHeaders = function flushHeaders() {
    decideOnce()
    if (flow !== 'hold') call('flushHeaders', [])
  }

  response.write = function write(...args: unknown[]) {
    decideOnce()
    if (flow !== 'hold') return call('write', args)
    const [chunk, encoding, callback] = args
    if (isChunk(chunk)) chunks.push(toBuffer(chunk, encoding))
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') process.nextTick(done as () => void)
    return true
  } as ServerResponse['write']

  response.end = function end(...args: unknown[]) {
    decideOnce()
    if (flow !== 'hold') return call('end', args)
    const callback = args.find((argument) => typeof argument === 'function')
    if (isChunk(args[0])) chunks.push(toBuffer(args[0], args[1]))
    restore()
    const body = transformed(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) ?? Buffer.alloc(0)
    // The stages may have changed the body: its length is the one that goes out.
    response.setHeader('Content-Length', body.length)
    return call('end', callback ? [body, callback] : [body])
  } as ServerResponse['end']
}

const isChunk = (chunk: unknown): chunk is string | Uint8Array =>
  typeof chunk === 'string' || chunk instanceof Uint8Array

function toBuffer(chunk: string | Uint8Array, encoding: unknown): Buffer {
  if (typeof chunk === 'string') {
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  }
  // Kept by reference, as a stream buffers what it is given until it is flushed.
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
}

/** The headers given to writeHead, as an object or as a flat [name, value, …] list, set on the response. */
function setHeaders(response: ServerResponse, headers: unknown) {
  if (Array.isArray(headers)) {
    // A flat list may name a header twice (Set-Cookie): later ones add to it.
    const seen = new Set<string>()
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = String(headers[i])
      if (seen.has(name.toLowerCase())) response.appendHeader(name, headers[i + 1] as string)
      else response.setHeader(name, headers[i + 1] as string)
      seen.add(name.toLowerCase())
    }
  } else if (headers) {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
      if (value !== undefined) response.setHeader(name, value)
    }
  }
}

/** Makes the response's headers exactly `headers`, touching only those that changed (header names are
 *  case-insensitive: a changed one goes out in lower case, as over HTTP/2). */
function replaceHeaders(response: ServerResponse, headers: OutgoingHttpHeaders) {
  for (const name of response.getHeaderNames()) if (headers[name] === undefined) response.removeHeader(name)
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && response.getHeader(name) !== value) response.setHeader(name, value)
  }
}
