import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startContentLake, type ContentLake } from './start-content-lake.ts'
import { ImageCdn, RETRY_AFTER_SECONDS } from './image-cdn.ts'
import { parseImageParams, type ImageParams } from './image-params.ts'
import { transformPixels } from './image-transform.ts'
import { MemoryTransformCache } from './transform-cache.ts'

/*
 * The image CDN under a flood (the starvation attack: anyone asking for 8192² PNGs kept both cores
 * busy, a visitor's new thumbnail waited a minute, and work went on for clients long gone). The
 * transforms here are held until the test lets them finish, so that what waits, what runs and what
 * never runs is seen, not timed; sharp only makes the few small images the HTTP tests upload.
 */

/** A transform maker that records what it was asked for and holds each until `finish()`. */
function heldMaker() {
  const started: string[] = []
  const holds: (() => void)[] = []
  return {
    started,
    make: async (_source: Buffer, params: ImageParams) => {
      started.push(`w=${params.w}`)
      await new Promise<void>((resolve) => holds.push(resolve))
      return Buffer.from(`an image ${params.w} wide`)
    },
    finish: () => holds.splice(0).forEach((resolve) => resolve()),
  }
}

/** The attack's ask (8192² at dpr 3, capped to 8192²), with its own w so that each is a new transform. */
const huge = (w: number) => new URLSearchParams(`fm=png&w=${w}&h=8192&fit=scale&dpr=3`)
const small = (w: number) => new URLSearchParams(`w=${w}`)
const FILE = 'f00d-3000x2000.jpg'
const source = () => Buffer.from('the original')
/** Settled promises, in the order given: 'ok' or the refusal's status. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { status?: number }) => error.status,
  )

describe('the CDN queue', () => {
  it('caps what a request makes at 8192², clamped rather than refused: the attack is one large transform', () => {
    expect(transformPixels(parseImageParams(huge(8192)), 800, 1000)).toBe(8192 * 8192)
  })

  it('runs one large transform at a time and a small one beside it, never behind', async () => {
    const maker = heldMaker()
    const cdn = new ImageCdn(new MemoryTransformCache(), { make: maker.make })
    const first = cdn.transform(FILE, huge(8192), '', source, { client: 'attacker' })
    const second = cdn.transform(FILE, huge(8193), '', source, { client: 'attacker' })
    expect(maker.started).toEqual(['w=8192'])
    expect(cdn.stats.waiting.large).toBe(1)
    const thumbnail = cdn.transform(FILE, small(400), '', source, { client: 'attacker' })
    // Started at once, in the slot large ones may not take.
    expect(maker.started).toEqual(['w=8192', 'w=400'])
    maker.finish()
    expect((await thumbnail).bytes.toString()).toBe('an image 400 wide')
    await first
    maker.finish()
    await second
    expect(maker.started).toEqual(['w=8192', 'w=400', 'w=8193'])
    expect(cdn.peakRunningLarge).toBe(1)
  })

  it('gives a client past its budget of large transforms a 429 with Retry-After, not a place in line', async () => {
    const maker = heldMaker()
    const cdn = new ImageCdn(new MemoryTransformCache(), { make: maker.make })
    const under = [8192, 8193].map((w) => cdn.transform(FILE, huge(w), '', source, { client: 'attacker' }))
    const refused = await cdn.transform(FILE, huge(8194), '', source, { client: 'attacker' }).catch((error) => error)
    expect(refused).toMatchObject({
      status: 429,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      body: { statusCode: 429, error: 'Too Many Requests' },
    })
    // Another client has its own budget; small transforms are outside it.
    const other = cdn.transform(FILE, huge(8195), '', source, { client: 'someone else' })
    const thumbnail = cdn.transform(FILE, small(300), '', source, { client: 'attacker' })
    expect(cdn.stats.waiting.large).toBe(2)
    for (let round = 0; round < 4; round++) {
      maker.finish()
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(await Promise.all([...under, other, thumbnail].map(outcome))).toEqual(['ok', 'ok', 'ok', 'ok'])
  })

  it('drops a waiting transform once every client that asked for it has gone: it never runs', async () => {
    const maker = heldMaker()
    const cdn = new ImageCdn(new MemoryTransformCache(), { make: maker.make })
    const running = cdn.transform(FILE, huge(8192), '', source, { client: 'a' })
    const [leaves, alsoLeaves] = [new AbortController(), new AbortController()]
    // Two clients wait for the same transform: one leaving does not take it from the other.
    const waiting = cdn.transform(FILE, huge(9000), '', source, { client: 'a', signal: leaves.signal })
    const sameOne = cdn.transform(FILE, huge(9000), '', source, { client: 'b', signal: alsoLeaves.signal })
    leaves.abort()
    expect(cdn.stats).toMatchObject({ waiting: { large: 1 }, dropped: 0 })
    alsoLeaves.abort()
    expect(cdn.stats).toMatchObject({ waiting: { large: 0 }, dropped: 1 })
    expect(await Promise.all([waiting, sameOne].map(outcome))).toEqual([499, 499])
    maker.finish()
    await running
    expect(maker.started).toEqual(['w=8192'])
    // Its cost went back to client a, which may ask for two more.
    const again = [8300, 8301].map((w) => cdn.transform(FILE, huge(w), '', source, { client: 'a' }))
    expect(cdn.stats.waiting.large).toBe(1)
    maker.finish()
    await again[0]
    maker.finish()
    await again[1]
  })

  it('never turns a cheap transform away for dearer ones: the costliest waiting one gets the 503', async () => {
    const maker = heldMaker()
    const cdn = new ImageCdn(new MemoryTransformCache(), { concurrency: 1, maxWaiting: 2, make: maker.make })
    const asks = [1000, 900, 800].map((w) => outcome(cdn.transform(FILE, small(w), '', source)))
    const cheap = outcome(cdn.transform(FILE, small(100), '', source))
    const dear = outcome(cdn.transform(FILE, small(950), '', source))
    for (let round = 0; round < 4; round++) {
      maker.finish()
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(await Promise.all([...asks, cheap, dear])).toEqual(['ok', 503, 'ok', 'ok', 503])
    // Cheapest first once the running one is done.
    expect(maker.started).toEqual(['w=1000', 'w=100', 'w=800'])
  })

  it('refuses a source over the input limit before reading it', async () => {
    const cdn = new ImageCdn(new MemoryTransformCache())
    const read = vi.fn(source)
    const refused = await cdn.transform('f00d-16000x16000.png', small(400), '', read).catch((error) => error)
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringMatching(/100 megapixels/) } })
    expect(read).not.toHaveBeenCalled()
  })
})

describe('over HTTP', () => {
  let lake: ContentLake
  const maker = heldMaker()
  let imageUrl: string

  beforeAll(async () => {
    lake = await startContentLake({ port: 0, webhookUrl: null, log: () => {}, imageCdn: { make: maker.make } })
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .png()
      .toBuffer()
    imageUrl = (await upload(png)).body.document.url
  })
  afterAll(async () => {
    maker.finish()
    await lake?.close()
  })

  async function upload(bytes: Buffer) {
    const response = await fetch(`${lake.url}/v2025-02-19/assets/images/production`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${lake.token}`, 'Content-Type': 'image/png' },
      body: new Uint8Array(bytes),
    })
    return { status: response.status, body: await response.json() }
  }

  it('answers a client past its budget 429 with Retry-After, and a new thumbnail meanwhile', async () => {
    const first = fetch(`${imageUrl}?${huge(8192)}`)
    await vi.waitFor(() => expect(maker.started).toEqual(['w=8192']))
    const second = fetch(`${imageUrl}?${huge(8193)}`)
    await vi.waitFor(() => expect(lake.images.stats.waiting.large).toBe(1))
    const third = await fetch(`${imageUrl}?${huge(8194)}`)
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
    expect(await third.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    // The small lane is free while the large one is held.
    const thumbnail = fetch(`${imageUrl}?w=40`)
    await vi.waitFor(() => expect(maker.started).toContain('w=40'))
    expect(lake.images.stats.running).toEqual({ small: 1, large: 1 })
    maker.finish()
    expect((await thumbnail).status).toBe(200)
    expect((await first).status).toBe(200)
    await vi.waitFor(() => expect(maker.started).toContain('w=8193'))
    maker.finish()
    expect((await second).status).toBe(200)
  })

  it('takes a transform out of the line when its client disconnects: it never runs', async () => {
    const started = maker.started.length
    const first = fetch(`${imageUrl}?${huge(9100)}`)
    await vi.waitFor(() => expect(maker.started).toHaveLength(started + 1))
    const leaving = new AbortController()
    const gone = fetch(`${imageUrl}?${huge(9101)}`, { signal: leaving.signal }).catch(() => 'aborted')
    await vi.waitFor(() => expect(lake.images.stats.waiting.large).toBe(1))
    const dropped = lake.images.stats.dropped
    leaving.abort()
    expect(await gone).toBe('aborted')
    await vi.waitFor(() => expect(lake.images.stats).toMatchObject({ waiting: { large: 0 }, dropped: dropped + 1 }))
    maker.finish()
    expect((await first).status).toBe(200)
    expect(maker.started.slice(started)).toEqual(['w=9100'])
  })

  it('refuses an upload past the input limit with 400 and a message saying so, from its header alone', async () => {
    // 16000×16000, one bit a pixel, all black: 32 MB of rows that deflate to ~31 KB (the attack's file).
    const crc = (bytes: Buffer) => {
      let c = ~0
      for (const byte of bytes) {
        c ^= byte
        for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
      }
      return ~c >>> 0
    }
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
      const framed = Buffer.alloc(body.length + 8)
      framed.writeUInt32BE(data.length, 0)
      body.copy(framed, 4)
      framed.writeUInt32BE(crc(body), body.length + 4)
      return framed
    }
    const header = Buffer.alloc(13)
    header.writeUInt32BE(16000, 0)
    header.writeUInt32BE(16000, 4)
    header.set([1, 0, 0, 0, 0], 8) // 1-bit greyscale
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(16000 * (1 + 16000 / 8)), { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ])
    expect(png.length).toBeLessThan(64 * 1024)
    const { status, body } = await upload(png)
    expect(status).toBe(400)
    expect(body).toEqual({
      error: {
        type: 'invalidImageError',
        description: expect.stringMatching(/16000×16000 pixels \(256\.0 megapixels\).*at most 100 megapixels/),
      },
    })
    const sha1 = createHash('sha1').update(png).digest('hex')
    expect(lake.store.get(`image-${sha1}-16000x16000-png`)).toBeNull()
  })
})
