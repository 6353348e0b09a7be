import sharp, { type Metadata } from 'sharp'
import { gatewayError } from './content-lake-error.ts'
import { MAX_INPUT_PIXELS, MAX_OUTPUT_SIDE, type ImageParams, type OutputFormat } from './image-params.ts'

/*
 * One image transform as Sanity's CDN makes it, with sharp: rect, then orientation and flips, then the
 * size the fit mode gives (crop and focal point, padding for fill/fillmax), effects, and the encoder.
 */

// libvips' operation cache keeps decoded images around between calls; every call here starts from a
// different source or size, so it only costs memory (issue 38: a flood of sizes must stay bounded).
sharp.cache(false)
// One libvips thread per transform: the CDN's queue (image-cdn.ts) decides how many run at once, one
// per core, and a huge transform then holds one core, never both, while a small one runs on the other.
// Fewer threads also leave glibc fewer arenas to keep freed memory in. sharp's own default on glibc is 1
// for that reason, but the number of cores once MALLOC_ARENA_MAX is set, as startTwins sets it (sharp's
// concurrency() docs): hence explicit. AVIF's encoder, libaom, runs threads of its own regardless.
sharp.concurrency(1)

export const FORMAT_TYPES: Record<OutputFormat, string> = {
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
}

/**
 * What one output pixel costs each encoder, in JPEG's: measured with sharp on one libvips thread
 * (a 3000×2000 photo made 2560 wide: JPEG and PNG 0.07 s a megapixel, WebP 0.2, AVIF at effort 2
 * 0.6; GIF, not measured, quantises its colours). The CDN's queue weighs transforms by it (image-cdn.ts).
 */
export const FORMAT_COST: Record<OutputFormat, number> = { jpg: 1, pjpg: 1, png: 1, gif: 2, webp: 3, avif: 8 }

/** The CDN's default quality for lossy output. */
const DEFAULT_QUALITY = 75

/** The format served: fm; auto=format by Accept (AVIF, then WebP); else the original's own, JPEG if it has none. */
export function outputFormat(params: ImageParams, originalExtension: string, accept: string): OutputFormat {
  if (params.fm) return params.fm
  if (params.autoFormat) {
    if (/\bimage\/avif\b/i.test(accept)) return 'avif'
    if (/\bimage\/webp\b/i.test(accept)) return 'webp'
  }
  if (originalExtension === 'png' || originalExtension === 'webp' || originalExtension === 'avif')
    return originalExtension
  if (originalExtension === 'gif') return 'gif'
  return 'jpg'
}

type Plan = {
  /** Size the (cropped, turned) source is resized to; the canvas for fill/fillmax. */
  width: number
  height: number
  mode: 'inside' | 'cover' | 'stretch' | 'pad'
  /** For `pad`: the picture's own size inside the canvas. */
  inner?: { width: number; height: number }
}

const clampSide = (value: number) => Math.max(1, Math.round(value))

/** What the fit mode makes of a source of `sw`×`sh` (after rect and orientation). */
export function planSize(params: ImageParams, sw: number, sh: number): Plan {
  const W = params.w === undefined ? undefined : params.w * params.dpr
  const H = params.h === undefined ? undefined : params.h * params.dpr
  const enlarge = !(params.fit === 'max' || params.fit === 'fillmax' || params.fit === 'min')
  const fitScale = () => {
    let scale = W && H ? Math.min(W / sw, H / sh) : W ? W / sw : H ? H / sh : 1
    if (!enlarge) scale = Math.min(scale, 1)
    return scale
  }
  let plan: Plan
  if (W && H && (params.fit === 'crop' || params.fit === 'min')) {
    // min: the requested aspect ratio, never larger than the source allows.
    const shrink = params.fit === 'min' ? Math.min(1, sw / W, sh / H) : 1
    plan = { width: clampSide(W * shrink), height: clampSide(H * shrink), mode: 'cover' }
  } else if (W && H && params.fit === 'scale') {
    plan = { width: clampSide(W), height: clampSide(H), mode: 'stretch' }
  } else if (W && H && (params.fit === 'fill' || params.fit === 'fillmax')) {
    const scale = fitScale()
    plan = {
      width: clampSide(W),
      height: clampSide(H),
      mode: 'pad',
      inner: { width: clampSide(sw * scale), height: clampSide(sh * scale) },
    }
  } else {
    const scale = fitScale()
    plan = { width: clampSide(sw * scale), height: clampSide(sh * scale), mode: 'inside' }
  }
  // max-w/max-h shrink and min-w/min-h grow the result (keeping its shape), then the CDN's cap.
  let factor = 1
  if (params.minW && plan.width < params.minW) factor = Math.max(factor, params.minW / plan.width)
  if (params.minH && plan.height < params.minH) factor = Math.max(factor, params.minH / plan.height)
  if (params.maxW && plan.width * factor > params.maxW) factor = params.maxW / plan.width
  if (params.maxH && plan.height * factor > params.maxH) factor = params.maxH / plan.height
  factor = Math.min(factor, MAX_OUTPUT_SIDE / plan.width, MAX_OUTPUT_SIDE / plan.height)
  if (factor === 1) return plan
  const scaled = (value: number) => Math.min(MAX_OUTPUT_SIDE, clampSide(value * factor))
  return {
    width: scaled(plan.width),
    height: scaled(plan.height),
    mode: plan.mode,
    inner: plan.inner && { width: scaled(plan.inner.width), height: scaled(plan.inner.height) },
  }
}

/** The size a stored image's name carries (`<sha1>-<w>x<h>.<ext>`), or null for a name without one. */
export function storedSize(file: string): { width: number; height: number } | null {
  const match = /-(\d+)x(\d+)\.[a-z0-9]+$/.exec(file)
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null
}

/**
 * How many pixels a transform makes, known before the source is read: its output's (the canvas), from
 * the source's size as its stored name gives it. The URL decides this much (at most 8192², the cap);
 * what the source costs to decode was bounded at upload (MAX_INPUT_PIXELS). The EXIF orientation is
 * not in the name: the larger of both readings.
 */
export function transformPixels(params: ImageParams, width: number, height: number): number {
  const made = (sw: number, sh: number) => {
    if (params.rect) {
      const left = Math.min(params.rect.left, sw - 1)
      const top = Math.min(params.rect.top, sh - 1)
      ;[sw, sh] = [Math.min(params.rect.width, sw - left), Math.min(params.rect.height, sh - top)]
    }
    if (params.or === 90 || params.or === 270) [sw, sh] = [sh, sw]
    const plan = planSize(params, sw, sh)
    return plan.width * plan.height
  }
  return Math.max(made(width, height), made(height, width))
}

/** Where a cover crop of `target` out of `resized` starts, by the crop parameter. */
function cropOffset(params: ImageParams, resized: number, target: number, axis: 'x' | 'y'): number {
  const spare = resized - target
  const [low, high] = axis === 'x' ? ['left', 'right'] : ['top', 'bottom']
  if (params.crop.includes('focalpoint')) {
    const focus = (axis === 'x' ? params.fpX : params.fpY) * resized
    return Math.min(spare, Math.max(0, Math.round(focus - target / 2)))
  }
  if (params.crop.includes(low)) return 0
  if (params.crop.includes(high)) return spare
  return Math.round(spare / 2)
}

/** Transforms `source` (the original's bytes); a source sharp cannot read is the CDN's 400. */
export async function transformImage(source: Buffer, params: ImageParams, format: OutputFormat): Promise<Buffer> {
  let image = sharp(source, { failOn: 'error', animated: false, limitInputPixels: MAX_INPUT_PIXELS }).autoOrient()
  let meta: Metadata
  try {
    meta = await sharp(source).metadata()
  } catch {
    throw gatewayError(400, 'Bad Request', 'Unable to read the source image')
  }
  // Uploads past the limit are refused (assets.ts); this is for a file stored before it existed.
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS)
    throw gatewayError(400, 'Bad Request', `The source image is over ${MAX_INPUT_PIXELS / 1e6} megapixels`)
  const turned = (meta.orientation ?? 1) >= 5
  let sw = (turned ? meta.height : meta.width) ?? 1
  let sh = (turned ? meta.width : meta.height) ?? 1
  if (params.rect) {
    const left = Math.min(params.rect.left, sw - 1)
    const top = Math.min(params.rect.top, sh - 1)
    const width = Math.min(params.rect.width, sw - left)
    const height = Math.min(params.rect.height, sh - top)
    image = image.extract({ left, top, width, height })
    sw = width
    sh = height
  }
  if (params.or) {
    image = image.rotate(params.or)
    if (params.or !== 180) [sw, sh] = [sh, sw]
  }
  if (params.flip?.includes('h')) image = image.flop()
  if (params.flip?.includes('v')) image = image.flip()
  const plan = planSize(params, sw, sh)
  // Nothing to change (fit=max at or above the original's size, its own format): the original's bytes,
  // not a re-encoding of them.
  const sameFormat = format === (meta.format === 'jpeg' ? 'jpg' : meta.format)
  const untouched = !params.rect && !params.or && !params.flip && !params.blur && !params.sharp && !params.sat
  if (
    sameFormat &&
    untouched &&
    !params.invert &&
    !params.bg &&
    params.q === undefined &&
    (meta.orientation ?? 1) === 1
  )
    if (plan.mode === 'inside' && plan.width === sw && plan.height === sh) return source
  const background = params.bg
    ? { ...params.bg }
    : format === 'jpg' || format === 'pjpg'
      ? { r: 255, g: 255, b: 255, alpha: 1 }
      : { r: 0, g: 0, b: 0, alpha: 0 }
  if (plan.mode === 'inside' || plan.mode === 'stretch') {
    if (plan.width !== sw || plan.height !== sh) image = image.resize(plan.width, plan.height, { fit: 'fill' })
  } else if (plan.mode === 'pad' && plan.inner) {
    const x = Math.floor((plan.width - plan.inner.width) / 2)
    const y = Math.floor((plan.height - plan.inner.height) / 2)
    image = image.resize(plan.inner.width, plan.inner.height, { fit: 'fill' }).extend({
      left: x,
      top: y,
      right: plan.width - plan.inner.width - x,
      bottom: plan.height - plan.inner.height - y,
      background,
    })
  } else if (params.crop.includes('entropy')) {
    image = image.resize(plan.width, plan.height, { fit: 'cover', position: sharp.strategy.entropy })
  } else {
    const scale = Math.max(plan.width / sw, plan.height / sh)
    const rw = Math.max(plan.width, Math.round(sw * scale))
    const rh = Math.max(plan.height, Math.round(sh * scale))
    image = image.resize(rw, rh, { fit: 'fill' }).extract({
      left: cropOffset(params, rw, plan.width, 'x'),
      top: cropOffset(params, rh, plan.height, 'y'),
      width: plan.width,
      height: plan.height,
    })
  }
  // blur and sharp run 0–2000 and 0–100 on the CDN; sharp's sigma is in pixels: a close, not equal, look.
  if (params.blur) image = image.blur(Math.min(1000, 0.3 + params.blur / 20))
  if (params.sharp) image = image.sharpen({ sigma: 0.5 + params.sharp / 40 })
  if (params.sat) image = image.modulate({ saturation: 1 + params.sat / 100 })
  if (params.invert) image = image.negate({ alpha: false })
  if (format === 'jpg' || format === 'pjpg' || params.bg) image = image.flatten({ background })
  const quality = params.q ?? DEFAULT_QUALITY
  if (format === 'jpg' || format === 'pjpg') image = image.jpeg({ quality, progressive: format === 'pjpg' })
  else if (format === 'png') image = image.png()
  else if (format === 'webp') image = image.webp({ quality })
  // effort 2: a local stand-in answers in a second, not the hosted encoder's smallest file.
  else if (format === 'avif') image = image.avif({ quality: Math.round(quality * 0.7), effort: 2 })
  else image = image.gif()
  try {
    return await image.toBuffer()
  } catch {
    throw gatewayError(400, 'Bad Request', 'Unable to transform the source image')
  }
}
