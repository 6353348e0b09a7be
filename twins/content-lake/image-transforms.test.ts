import type { SanityClient } from '@sanity/client'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planSize } from './image-transform.ts'
import { parseImageParams } from './image-params.ts'
import { startTestLake, type TestLake } from './test-lake.ts'

/*
 * The lake's images as Sanity's CDN serves them (issue 38): uploads record the hosted pipeline's
 * metadata, and /images/… transforms by its parameters. The cache's bounds: transform-cache.test.ts.
 */

let test: TestLake
let editor: SanityClient
/** A 3000×2000 JPEG: its left half red, its right half blue (crops can be told apart by colour). */
let photoUrl: string
let photoMetadata: Record<string, unknown>

const halves = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#1040e0' } })
    .composite([
      {
        input: { create: { width: width / 2, height, channels: 3, background: '#e01010' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .toBuffer()

beforeAll(async () => {
  test = await startTestLake()
  editor = test.editor
  const asset = await editor.assets.upload('image', await halves(3000, 2000), { filename: 'photo.jpg' })
  photoUrl = asset.url
  photoMetadata = asset.metadata as unknown as Record<string, unknown>
})
afterAll(() => test?.close())

async function get(query: string, accept = 'image/*') {
  const response = await fetch(`${photoUrl}?${query}`, { headers: { Accept: accept } })
  const bytes = Buffer.from(await response.arrayBuffer())
  const meta = response.ok ? await sharp(bytes).metadata() : null
  return { response, bytes, meta }
}

/** The colour of the output's middle pixel, as `r,g,b`, each rounded to the nearest 64. */
async function middle(bytes: Buffer) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
  const index = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels
  return [0, 1, 2].map((channel) => Math.round(data[index + channel] / 64) * 64).join(',')
}

describe('uploads record what the hosted pipeline records', () => {
  it('has an lqip: a ~20 px wide JPEG data URL', async () => {
    const lqip = photoMetadata.lqip as string
    expect(lqip).toMatch(/^data:image\/jpeg;base64,/)
    const image = await sharp(Buffer.from(lqip.split(',')[1], 'base64')).metadata()
    expect(image).toMatchObject({ format: 'jpeg', width: 20, height: 13 })
  })

  it('has dimensions, a palette, a BlurHash and the transparency flags', () => {
    expect(photoMetadata.dimensions).toMatchObject({ width: 3000, height: 2000, aspectRatio: 1.5 })
    expect(photoMetadata).toMatchObject({ hasAlpha: false, isOpaque: true })
    expect(photoMetadata.blurHash).toMatch(/^[0-9A-Za-z#$%*+,-.:;=?@[\]^_{|}~]{28}$/)
    const palette = photoMetadata.palette as Record<string, Record<string, unknown>>
    expect(palette.dominant).toMatchObject({ _type: 'sanity.imagePaletteSwatch', foreground: '#fff', title: '#fff' })
    expect(palette.dominant.background).toMatch(/^#[0-9a-f]{6}$/)
    expect(palette.dominant.population).toBeGreaterThan(10)
  })

  it('reads transparency from a PNG with alpha', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#00ff0080' } })
      .png()
      .toBuffer()
    const asset = await editor.assets.upload('image', png)
    expect(asset.metadata).toMatchObject({ hasAlpha: true, isOpaque: false })
  })
})

describe('GET /images/… transforms as the CDN does', () => {
  it('w=400&auto=format: 400×267, AVIF or WebP as Accept allows, else JPEG; Vary: Accept', async () => {
    const avif = await get('w=400&auto=format', 'image/avif,image/webp,image/*')
    expect(avif.meta).toMatchObject({ width: 400, height: 267, format: 'heif' })
    expect(avif.response.headers.get('content-type')).toBe('image/avif')
    expect(avif.response.headers.get('vary')).toBe('Accept')
    const webp = await get('w=400&auto=format', 'image/webp,*/*')
    expect(webp.meta).toMatchObject({ width: 400, height: 267, format: 'webp' })
    const jpeg = await get('w=400&auto=format', 'image/*')
    expect(jpeg.meta).toMatchObject({ width: 400, height: 267, format: 'jpeg' })
    expect(jpeg.response.headers.get('content-type')).toBe('image/jpeg')
  })

  it('rect then w: rect=0,0,1500,1000&w=300 is 300×200 of the red half', async () => {
    const { meta, bytes } = await get('rect=0,0,1500,1000&w=300')
    expect(meta).toMatchObject({ width: 300, height: 200 })
    expect(await middle(bytes)).toBe('256,0,0')
  })

  it('fit=crop fills the box, from the edge or focal point asked for', async () => {
    expect((await get('w=400&h=400&fit=crop')).meta).toMatchObject({ width: 400, height: 400 })
    expect(await middle((await get('w=100&h=100&fit=crop&crop=left')).bytes)).toBe('256,0,0')
    expect(await middle((await get('w=100&h=100&fit=crop&crop=right')).bytes)).toBe('0,64,256')
    const focal = await get('w=100&h=100&fit=crop&crop=focalpoint&fp-x=0.9&fp-y=0.5')
    expect(await middle(focal.bytes)).toBe('0,64,256')
  })

  it('fit=max never enlarges; the default fit does', async () => {
    expect((await get('w=5000&fit=max')).meta).toMatchObject({ width: 3000, height: 2000 })
    expect((await get('w=4500')).meta).toMatchObject({ width: 4500, height: 3000 })
    expect((await get('w=200&h=200&fit=fillmax')).meta).toMatchObject({ width: 200, height: 200 })
    expect((await get('h=100&dpr=2')).meta).toMatchObject({ width: 300, height: 200 })
  })

  it('fm=png is a PNG; or and flip turn it', async () => {
    const png = await get('w=300&fm=png')
    expect(png.meta).toMatchObject({ format: 'png', width: 300, height: 200 })
    expect(png.response.headers.get('content-type')).toBe('image/png')
    expect(png.response.headers.get('vary')).toBeNull()
    expect((await get('w=300&or=90')).meta).toMatchObject({ width: 300, height: 450 })
    const flipped = await get('w=100&h=100&fit=crop&crop=left&flip=h')
    expect(await middle(flipped.bytes)).toBe('0,64,256')
  })

  it('dl= is an attachment named after the file, or after its value', async () => {
    const own = await get('w=100&dl=')
    expect(own.response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="[0-9a-f]{40}-3000x2000\.jpg"/,
    )
    const named = await get('dl=photo%20large.jpg')
    expect(named.response.headers.get('content-disposition')).toMatch(/^attachment; filename="photo large\.jpg"/)
    expect(named.meta).toMatchObject({ width: 3000, height: 2000 })
  })

  it('refuses bad parameters with the CDN’s 400', async () => {
    for (const query of ['w=abc', 'fit=cover', 'fm=bmp', 'q=101', 'rect=1,2,3', 'or=45', 'flip=x', 'bg=zzz']) {
      const { response, bytes } = await get(query)
      expect(response.status, query).toBe(400)
      expect(JSON.parse(bytes.toString())).toMatchObject({ statusCode: 400, error: 'Bad Request' })
    }
    expect((await fetch(`${photoUrl.replace(/[0-9a-f]{40}/, 'f'.repeat(40))}?w=10`)).status).toBe(404)
  })
})

describe('the output cap', () => {
  it('scales asks beyond 8192 px down to 8192 on the longer side, keeping the shape', () => {
    expect(planSize(parseImageParams(new URLSearchParams('w=20000')), 3000, 2000)).toMatchObject({
      width: 8192,
      height: 5461,
    })
    expect(planSize(parseImageParams(new URLSearchParams('w=9000&h=9000&fit=crop')), 30, 20)).toMatchObject({
      width: 8192,
      height: 8192,
    })
  })
})
