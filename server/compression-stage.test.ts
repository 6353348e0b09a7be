import { createHash } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { CompressionMemo, compressionStage, negotiateEncoding } from './compression-stage.ts'
import type { Outgoing } from './stage.ts'

/* The compression stage on responses as the pipeline hands them over; response-pipeline.test.ts sends
 * real ones through it, after the policy stage. */

const text = (seed: string) => Array.from({ length: 600 }, (_, i) => `<p>${seed} ${i % 7}</p>`).join('')
const arriving = (acceptEncoding?: string) => ({
  method: 'GET',
  url: '/',
  headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
})
function page(body: string | null, headers: Outgoing['headers'] = {}, status = 200): Outgoing {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      etag: '"v1"',
      'cache-control': 's-maxage=31536000',
      ...headers,
    },
    body: body === null ? null : Buffer.from(body),
  }
}

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, honours q=0 and *', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding(undefined)).toBeNull()
    expect(negotiateEncoding('*')).toBe('br')
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip')
  })
})

describe('compressionStage', () => {
  it('asks for a compressible body the client can take compressed, and for nothing else', () => {
    const stage = compressionStage(new CompressionMemo())
    const head = (type: string, more = {}) => ({ status: 200, headers: { 'content-type': type, ...more } })
    expect(stage.wantsBody(head('text/html'), arriving('br'))).toBe(true)
    expect(stage.wantsBody(head('text/x-component'), arriving('gzip'))).toBe(true)
    expect(stage.wantsBody(head('text/html'), arriving())).toBe(false)
    expect(stage.wantsBody(head('image/png'), arriving('br'))).toBe(false)
    expect(stage.wantsBody(head('text/html', { 'content-encoding': 'br' }), arriving('br'))).toBe(false)
  })

  it('brotli or gzip as accepted: the encoding, its length, a weak ETag and Vary are said', () => {
    const stage = compressionStage(new CompressionMemo())
    const br = page(text('a'))
    stage.apply(br, arriving('gzip, br'))
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(text('a'))
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      'content-length': br.body?.length,
      etag: 'W/"v1"',
      vary: 'Accept-Encoding',
    })
    const gzip = page(text('a'), { vary: 'rsc' })
    stage.apply(gzip, arriving('gzip'))
    expect(gunzipSync(gzip.body as Buffer).toString()).toBe(text('a'))
    expect(gzip.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'rsc, Accept-Encoding' })
  })

  it('sends the body as is to a client that takes neither, Vary still said and the ETag strong', () => {
    const plain = page(text('a'))
    compressionStage(new CompressionMemo()).apply(plain, arriving())
    expect(plain.body?.toString()).toBe(text('a'))
    expect(plain.headers).toMatchObject({ etag: '"v1"', vary: 'Accept-Encoding' })
    expect(plain.headers).not.toHaveProperty('content-encoding')
  })

  it('a 304 gets the weak ETag the client holds; a HEAD only Vary', () => {
    const stage = compressionStage(new CompressionMemo())
    const notModified = page(null, {}, 304)
    stage.apply(notModified, arriving('br'))
    expect(notModified.headers).toMatchObject({ etag: 'W/"v1"', vary: 'Accept-Encoding' })
    const head = page(null)
    stage.apply(head, arriving('br'))
    expect(head.headers).toMatchObject({ etag: '"v1"', vary: 'Accept-Encoding' })
    expect(head.headers).not.toHaveProperty('content-encoding')
  })

  it('compresses each version once; a private body is compressed every time and never kept; small, binary and encoded bodies pass', () => {
    const memo = new CompressionMemo()
    const stage = compressionStage(memo)
    const first = page(text('memo'))
    stage.apply(first, arriving('br'))
    const kept = memo.entries.size
    const again = page(text('memo'))
    stage.apply(again, arriving('br'))
    expect(memo.entries.size).toBe(kept)
    expect(again.body?.equals(first.body as Buffer)).toBe(true)
    stage.apply(page(text('memo2')), arriving('br'))
    expect(memo.entries.size).toBe(kept + 1)

    const secret = page(text('private'), { 'cache-control': 'private, no-store' })
    stage.apply(secret, arriving('br'))
    expect(secret.headers['content-encoding']).toBe('br')
    expect(memo.entries.size).toBe(kept + 1)

    const small = page('petit')
    stage.apply(small, arriving('br'))
    expect([small.body?.toString(), small.headers['content-encoding']]).toEqual(['petit', undefined])
    const image: Outgoing = { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.alloc(4000, 1) }
    stage.apply(image, arriving('br'))
    expect(image.headers).toEqual({ 'content-type': 'image/png' })
    const encoded = page(text('x'), { 'content-encoding': 'gzip' })
    stage.apply(encoded, arriving('br'))
    expect(encoded.body?.toString()).toBe(text('x'))
  })

  it('the memo keeps within its byte budget, keys counted, least recently used out', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((seed) =>
      Buffer.from(Array.from({ length: 3000 }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(' ')),
    )
    const cost = (body: Buffer) => {
      const alone = new CompressionMemo()
      alone.get('gzip', body)
      return alone.bytes
    }
    const key = (body: Buffer) => `gzip:${createHash('sha1').update(body).digest('base64')}`
    // Room for any two of the three, not for all three.
    const memo = new CompressionMemo(cost(a) + cost(b) + cost(c) - 1)
    memo.get('gzip', a)
    memo.get('gzip', b)
    memo.get('gzip', a) // a used again: b is now the least recently used
    memo.get('gzip', c)
    expect(memo.bytes).toBeLessThanOrEqual(memo.maxBytes)
    expect([...memo.entries.keys()]).toEqual([key(a), key(c)])
    expect(memo.bytes).toBe(cost(a) + cost(c))
    expect(cost(a)).toBeGreaterThan(key(a).length + (memo.entries.get(key(a))?.length ?? 0) - 1)
  })
})
