import { encode } from 'blurhash'
import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './image-params.ts'

/*
 * What Sanity's asset pipeline records about an uploaded image in its document's `metadata`, besides
 * the dimensions assets.ts reads: the lqip the site shows while the picture loads (lib/sanity/queries.ts
 * asks for it), a palette, transparency, and a BlurHash.
 */

export type Swatch = {
  _type: 'sanity.imagePaletteSwatch'
  background: string
  foreground: string
  title: string
  population: number
}

type SwatchName = 'dominant' | 'vibrant' | 'lightVibrant' | 'darkVibrant' | 'muted' | 'lightMuted' | 'darkMuted'

export type ImageAnalysis = {
  lqip: string
  palette: { _type: 'sanity.imagePalette' } & Partial<Record<SwatchName, Swatch>>
  hasAlpha: boolean
  isOpaque: boolean
  blurHash: string
}

/** The lqip's width, as the hosted pipeline's (a 20 px JPEG as a data URL, ~1 KB). */
const LQIP_WIDTH = 20
/** The palette is read from a sample this wide: enough for the colours, cheap for a 50 MB upload. */
const SAMPLE = 64

const hex = (r: number, g: number, b: number) =>
  `#${[r, g, b].map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`

function hsl(r: number, g: number, b: number): { s: number; l: number } {
  const max = Math.max(r, g, b) / 255
  const min = Math.min(r, g, b) / 255
  const l = (max + min) / 2
  const s = max === min ? 0 : l > 0.5 ? (max - min) / (2 - max - min) : (max - min) / (max + min)
  return { s, l }
}

/** Text readable on `background`: white on dark, black on light (relative luminance, WCAG). */
function readableOn(r: number, g: number, b: number): string {
  const channel = (value: number) => {
    const c = value / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
  return luminance > 0.179 ? '#000' : '#fff'
}

/**
 * The targets of node-vibrant's palette, which Sanity's names follow: a lightness band and a
 * saturation band each; the swatch nearest the target's middle, weighted by how common it is, wins.
 */
const TARGETS: Record<Exclude<SwatchName, 'dominant'>, { l: [number, number]; s: [number, number] }> = {
  vibrant: { l: [0.3, 0.7], s: [0.35, 1] },
  lightVibrant: { l: [0.55, 1], s: [0.35, 1] },
  darkVibrant: { l: [0, 0.45], s: [0.35, 1] },
  muted: { l: [0.3, 0.7], s: [0, 0.4] },
  lightMuted: { l: [0.55, 1], s: [0, 0.4] },
  darkMuted: { l: [0, 0.45], s: [0, 0.4] },
}

function palette(pixels: Buffer, channels: number): ImageAnalysis['palette'] {
  // Colours quantised to 4 bits a channel (4,096 buckets), each bucket keeping its mean colour.
  const buckets = new Map<number, { r: number; g: number; b: number; count: number }>()
  let counted = 0
  for (let index = 0; index < pixels.length; index += channels) {
    if (channels === 4 && pixels[index + 3] < 128) continue
    const [r, g, b] = [pixels[index], pixels[index + 1], pixels[index + 2]]
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4)
    const bucket = buckets.get(key) ?? { r: 0, g: 0, b: 0, count: 0 }
    bucket.r += r
    bucket.g += g
    bucket.b += b
    bucket.count++
    buckets.set(key, bucket)
    counted++
  }
  const colours = [...buckets.values()].map(({ r, g, b, count }) => ({
    r: r / count,
    g: g / count,
    b: b / count,
    population: count,
  }))
  const swatch = (colour: (typeof colours)[number]): Swatch => {
    const text = readableOn(colour.r, colour.g, colour.b)
    return {
      _type: 'sanity.imagePaletteSwatch',
      background: hex(colour.r, colour.g, colour.b),
      foreground: text,
      title: text,
      // A share of the sampled pixels, in percent, as a number like the hosted pipeline's.
      population: Math.round((colour.population / Math.max(1, counted)) * 10000) / 100,
    }
  }
  const result: ImageAnalysis['palette'] = { _type: 'sanity.imagePalette' }
  const dominant = colours.reduce<(typeof colours)[number] | undefined>(
    (best, colour) => (!best || colour.population > best.population ? colour : best),
    undefined,
  )
  if (dominant) result.dominant = swatch(dominant)
  const largest = dominant?.population ?? 1
  for (const [name, target] of Object.entries(TARGETS) as [SwatchName, (typeof TARGETS)['muted']][]) {
    let best: { colour: (typeof colours)[number]; score: number } | undefined
    for (const colour of colours) {
      const { s, l } = hsl(colour.r, colour.g, colour.b)
      if (l < target.l[0] || l > target.l[1] || s < target.s[0] || s > target.s[1]) continue
      const middle = (band: [number, number], value: number) => 1 - Math.abs(value - (band[0] + band[1]) / 2)
      const score = middle(target.l, l) * 6 + middle(target.s, s) * 3 + (colour.population / largest) * 1
      if (!best || score > best.score) best = { colour, score }
    }
    if (best) result[name] = swatch(best.colour)
  }
  return result
}

/** Reads an upload's picture; null when sharp cannot (the upload still succeeds, without these fields). */
export async function analyseImage(bytes: Buffer): Promise<ImageAnalysis | null> {
  // The upload's header was checked against the limit (assets.ts); sharp is held to it as well.
  const image = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
  try {
    const meta = await image().metadata()
    const hasAlpha = Boolean(meta.hasAlpha)
    const isOpaque = hasAlpha ? (await image().stats()).isOpaque : true
    const lqip = await image()
      .autoOrient()
      .resize(LQIP_WIDTH)
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 40 })
      .toBuffer()
    const sample = await image()
      .autoOrient()
      .resize(SAMPLE, SAMPLE, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const { width, height } = sample.info
    return {
      lqip: `data:image/jpeg;base64,${lqip.toString('base64')}`,
      palette: palette(sample.data, 4),
      hasAlpha,
      isOpaque,
      // 4×3 components: the hosted pipeline's BlurHashes are 28 characters long, which is this.
      blurHash: encode(new Uint8ClampedArray(sample.data), width, height, 4, 3),
    }
  } catch {
    return null
  }
}
