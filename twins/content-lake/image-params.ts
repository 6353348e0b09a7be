import { gatewayError } from './content-lake-error.ts'

/*
 * The query string of an image URL (`/images/<project>/<dataset>/<file>?w=400&auto=format…`) read as
 * Sanity's image CDN reads it (https://www.sanity.io/docs/image-urls, and the names
 * @sanity/image-url writes): checked, with the CDN's 400 for a value it refuses, and normalised so
 * that two URLs asking for the same picture share one cached result.
 */

export type Fit = 'clip' | 'crop' | 'fill' | 'fillmax' | 'max' | 'scale' | 'min'
export type OutputFormat = 'jpg' | 'pjpg' | 'png' | 'webp' | 'avif' | 'gif'

export type ImageParams = {
  rect?: { left: number; top: number; width: number; height: number }
  w?: number
  h?: number
  maxW?: number
  maxH?: number
  minW?: number
  minH?: number
  fit: Fit
  /** Comma-separated edges (top, bottom, left, right), `center`, `focalpoint` or `entropy`. */
  crop: string[]
  fpX: number
  fpY: number
  dpr: number
  q?: number
  fm?: OutputFormat
  autoFormat: boolean
  bg?: { r: number; g: number; b: number; alpha: number }
  blur?: number
  sharp?: number
  sat?: number
  invert: boolean
  flip?: 'h' | 'v' | 'hv'
  or?: 0 | 90 | 180 | 270
  /** `dl`: null when absent, '' for the asset's own name. */
  download: string | null
}

/**
 * The largest side the CDN produces: larger asks are scaled down to it, keeping the aspect ratio, not
 * refused (twins/docs/sanity-wire.md §2.6: why, and what is known of the hosted CDN's cap). The most one
 * request can make is therefore 8192×8192 pixels.
 */
export const MAX_OUTPUT_SIDE = 8192

/**
 * The largest image the lake takes, in pixels (width × height): 100 megapixels, a 61 MP full-frame
 * camera's photo and then some. sharp's own default (16383², 268 MP) let a 31 KB PNG declaring
 * 16000×16000 in, whose every transform then decoded 256 MP. Uploads past it are refused from their
 * header, before anything is decoded (assets.ts); sharp is held to it too (limitInputPixels).
 */
export const MAX_INPUT_PIXELS = 100_000_000

const FITS = new Set<string>(['clip', 'crop', 'fill', 'fillmax', 'max', 'scale', 'min'])
const CROPS = new Set(['top', 'bottom', 'left', 'right', 'center', 'focalpoint', 'entropy'])
const FORMATS = new Set<string>(['jpg', 'pjpg', 'png', 'webp', 'avif'])

function refuse(message: string): never {
  throw gatewayError(400, 'Bad Request', message)
}

/** A number within [min, max]; integers only when `integer`. */
function numberParam(name: string, raw: string, min: number, max: number, integer = true): number {
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value)))
    refuse(`Invalid value for "${name}": expected ${integer ? 'an integer' : 'a number'}, got "${raw}"`)
  if (value < min || value > max) refuse(`Invalid value for "${name}": must be between ${min} and ${max}`)
  return value
}

/** `bg`: RGB or ARGB hex, 3, 4, 6 or 8 digits, as the CDN takes it. */
function colour(raw: string): NonNullable<ImageParams['bg']> {
  const hex = raw.replace(/^#/, '').toLowerCase()
  if (!/^([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(hex)) refuse(`Invalid value for "bg": "${raw}"`)
  const full = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex
  const argb = full.length === 8 ? full : `ff${full}`
  const byte = (index: number) => parseInt(argb.slice(index * 2, index * 2 + 2), 16)
  return { alpha: byte(0) / 255, r: byte(1), g: byte(2), b: byte(3) }
}

export function parseImageParams(search: URLSearchParams): ImageParams {
  const get = (name: string) => search.get(name) ?? undefined
  const size = (name: string) => {
    const raw = get(name)
    // The CDN caps what it makes, not what it is asked for: a large w is scaled down later, not refused.
    return raw === undefined ? undefined : numberParam(name, raw, 1, 100_000)
  }
  const params: ImageParams = {
    w: size('w'),
    h: size('h'),
    maxW: size('max-w'),
    maxH: size('max-h'),
    minW: size('min-w'),
    minH: size('min-h'),
    fit: 'clip',
    crop: ['center'],
    fpX: 0.5,
    fpY: 0.5,
    dpr: 1,
    autoFormat: false,
    invert: false,
    download: search.has('dl') ? (get('dl') ?? '') : null,
  }
  const rect = get('rect')
  if (rect !== undefined) {
    const parts = rect.split(',')
    if (parts.length !== 4) refuse('Invalid value for "rect": expected x,y,width,height')
    const [left, top, width, height] = parts.map((part) => numberParam('rect', part, 0, 1_000_000))
    if (width < 1 || height < 1) refuse('Invalid value for "rect": width and height must be at least 1')
    params.rect = { left, top, width, height }
  }
  const fit = get('fit')
  if (fit !== undefined) params.fit = FITS.has(fit) ? (fit as Fit) : refuse(`Invalid value for "fit": "${fit}"`)
  const crop = get('crop')
  if (crop !== undefined) {
    const modes = crop.split(',').filter(Boolean)
    if (modes.length === 0 || modes.some((mode) => !CROPS.has(mode))) refuse(`Invalid value for "crop": "${crop}"`)
    params.crop = [...new Set(modes)].sort()
  }
  const fpX = get('fp-x')
  if (fpX !== undefined) params.fpX = numberParam('fp-x', fpX, 0, 1, false)
  const fpY = get('fp-y')
  if (fpY !== undefined) params.fpY = numberParam('fp-y', fpY, 0, 1, false)
  const dpr = get('dpr')
  if (dpr !== undefined) params.dpr = numberParam('dpr', dpr, 1, 3, false)
  const q = get('q')
  if (q !== undefined) params.q = numberParam('q', q, 0, 100)
  const fm = get('fm')
  if (fm !== undefined) params.fm = FORMATS.has(fm) ? (fm as OutputFormat) : refuse(`Invalid value for "fm": "${fm}"`)
  const auto = get('auto')
  if (auto !== undefined) {
    if (auto !== 'format') refuse(`Invalid value for "auto": "${auto}"`)
    params.autoFormat = true
  }
  const bg = get('bg')
  if (bg !== undefined) params.bg = colour(bg)
  const blur = get('blur')
  if (blur !== undefined) params.blur = numberParam('blur', blur, 0, 2000)
  const sharp = get('sharp')
  if (sharp !== undefined) params.sharp = numberParam('sharp', sharp, 0, 100)
  const sat = get('sat')
  if (sat !== undefined) params.sat = numberParam('sat', sat, -100, 100)
  const invert = get('invert')
  if (invert !== undefined) params.invert = invert === 'true' || invert === '1'
  const flip = get('flip')
  if (flip !== undefined) {
    const normal = flip === 'vh' ? 'hv' : flip
    params.flip =
      normal === 'h' || normal === 'v' || normal === 'hv' ? normal : refuse(`Invalid value for "flip": "${flip}"`)
  }
  const or = get('or')
  if (or !== undefined) {
    const angle = Number(or)
    params.or =
      angle === 0 || angle === 90 || angle === 180 || angle === 270 ? angle : refuse(`Invalid value for "or": "${or}"`)
  }
  const frame = get('frame')
  // Only the first frame is ever produced (animations are not), which is what frame=1 asks for.
  if (frame !== undefined && frame !== '1') refuse(`Invalid value for "frame": "${frame}"`)
  return params
}

/**
 * The cache key of a transform: the parameters as parsed (so `w=400&fit=clip` and `fit=clip&w=400.0`
 * meet) with the output format already chosen (auto=format depends on the request's Accept header).
 * The download name is left out: it changes a header, not the bytes.
 */
export function transformKey(file: string, params: ImageParams, format: OutputFormat): string {
  const { download: _download, autoFormat: _autoFormat, fm: _fm, ...rest } = params
  return JSON.stringify([file, format, rest])
}

const TRANSFORMING = ['rect', 'w', 'h', 'max-w', 'max-h', 'min-w', 'min-h', 'fit', 'crop', 'fp-x', 'fp-y', 'dpr', 'q']
TRANSFORMING.push('fm', 'auto', 'bg', 'blur', 'sharp', 'sat', 'invert', 'flip', 'or', 'frame')

/**
 * True when the query asks for nothing that changes the bytes (none, `dl`, or names the CDN does not
 * know, such as a cache buster): the original is served as it is, as the CDN does.
 */
export function isIdentity(search: URLSearchParams): boolean {
  return !TRANSFORMING.some((name) => search.has(name))
}
