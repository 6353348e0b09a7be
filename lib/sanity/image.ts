import { createImageUrlBuilder } from '@sanity/image-url'
import { sanityCdnUrl, sanityDataset, sanityProjectId } from './env'

type Rect = {
  _type?: string
  top: number | null
  bottom: number | null
  left: number | null
  right: number | null
} | null
type Point = { _type?: string; x: number | null; y: number | null; height: number | null; width: number | null } | null

/** The image projection every query returns (see `imageFields` in queries.ts). */
export type SanityImageData = {
  url: string | null
  width: number | null
  height: number | null
  ref: string | null
  lqip?: string | null
  crop?: Rect
  hotspot?: Point
  alt?: string | null
}

export type ImageSource = {
  src: string
  width: number
  height: number
  /** `<url> <w>w` candidates for `srcset` (raster images only: an SVG is one file at every size). */
  srcSet?: string
  /** The asset's low-quality placeholder (a data URL), for opaque formats only. */
  placeholder?: string
}

// Sanity's image CDN, or whatever serves its paths and parameters where NEXT_PUBLIC_SANITY_CDN_URL says.
const builder = createImageUrlBuilder({ projectId: sanityProjectId, dataset: sanityDataset, baseUrl: sanityCdnUrl })

/*
 * The widths offered, as multiples of the widest CSS width the image is shown at: 1× for a 1x screen
 * (or a phone, where the column is narrower than that), 1.5× and 2× for denser screens. Three files
 * rather than one 2× file: a phone at 1x no longer downloads four times the pixels it shows.
 */
const DENSITIES = [1, 1.5, 2]

// Every number there, or the value is left out. Only the keys the type names are checked: the Studio
// writes `_type: 'sanity.imageCrop'` (and 'sanity.imageHotspot') beside them.
function present<K extends string>(value: Partial<Record<K, unknown>> | null | undefined, keys: K[]) {
  const numbers = {} as Record<K, number>
  for (const key of keys) {
    const n = value?.[key]
    if (typeof n !== 'number') return undefined
    numbers[key] = n
  }
  return numbers
}

// A JPEG has no transparency, so once loaded it covers its placeholder entirely; a PNG, WebP or AVIF
// may have some, through which a blurred placeholder would show for good.
const isOpaqueFormat = (ref: string) => /-jpe?g$/.test(ref)

/**
 * URLs and intrinsic size of an image. Raster images go through the image pipeline with the editor's
 * crop (as `rect`) and hotspot, in a few widths up to twice `displayWidth` (the widest CSS width the
 * page shows them at) and in the browser's best format (`auto=format`); SVGs are served as they are.
 */
export function imageSource(image: SanityImageData | null | undefined, displayWidth: number): ImageSource | null {
  if (!image?.url || !image.width || !image.height) return null
  if (!image.ref || image.url.endsWith('.svg')) return { src: image.url, width: image.width, height: image.height }
  const crop = present(image.crop ?? null, ['top', 'bottom', 'left', 'right'])
  const hotspot = present(image.hotspot ?? null, ['x', 'y', 'width', 'height'])
  const source = { asset: { _ref: image.ref }, ...(crop ? { crop } : {}), ...(hotspot ? { hotspot } : {}) }
  // The intrinsic size is that of the cropped area, which is what the URLs return (scaled down).
  const width = Math.round(image.width * (crop ? 1 - crop.left - crop.right : 1))
  const height = Math.round(image.height * (crop ? 1 - crop.top - crop.bottom : 1))
  // Never wider than the cropped area itself: the pipeline does not enlarge (fit=max), so a larger
  // width would be the same file under another URL.
  const widths = [...new Set(DENSITIES.map((density) => Math.min(Math.round(displayWidth * density), width)))]
  const url = (w: number) => builder.image(source).width(w).fit('max').auto('format').url()
  const placeholder = image.lqip && isOpaqueFormat(image.ref) ? image.lqip : undefined
  return {
    src: url(widths[widths.length - 1]),
    width,
    height,
    srcSet: widths.map((w) => `${url(w)} ${w}w`).join(', '),
    ...(placeholder ? { placeholder } : {}),
  }
}
