import { createImageUrlBuilder } from '@sanity/image-url'
import { sanityDataset, sanityProjectId, sanityServerApiHost } from './env'

type Rect = { top: number | null; bottom: number | null; left: number | null; right: number | null } | null
type Point = { x: number | null; y: number | null; height: number | null; width: number | null } | null

/** The image projection every query returns (see `imageFields` in queries.ts). */
export type SanityImageData = {
  url: string | null
  width: number | null
  height: number | null
  ref: string | null
  crop?: Rect
  hotspot?: Point
  alt?: string | null
}

export type ImageSource = { src: string; width: number; height: number }

// The local Content Lake serves images itself, at the image CDN's paths (no transformations).
const builder = createImageUrlBuilder({
  projectId: sanityProjectId,
  dataset: sanityDataset,
  ...(sanityServerApiHost ? { baseUrl: sanityServerApiHost } : {}),
})

const present = <T extends Record<string, number | null>>(value: T | null | undefined) =>
  value && Object.values(value).every((n) => typeof n === 'number') ? (value as { [K in keyof T]: number }) : undefined

/**
 * URL and intrinsic size for next/image. Raster images go through the image pipeline with the
 * editor's crop and hotspot (Sanity's CDN resizes and converts them, so next/image need not); SVGs
 * are served as they are.
 */
export function imageSource(image: SanityImageData | null | undefined, displayWidth: number): ImageSource | null {
  if (!image?.url || !image.width || !image.height) return null
  if (!image.ref || image.url.endsWith('.svg')) return { src: image.url, width: image.width, height: image.height }
  const crop = present(image.crop ?? null)
  const hotspot = present(image.hotspot ?? null)
  const source = { asset: { _ref: image.ref }, ...(crop ? { crop } : {}), ...(hotspot ? { hotspot } : {}) }
  // The intrinsic size is that of the cropped area, which is what the URL returns.
  const width = Math.round(image.width * (crop ? 1 - crop.left - crop.right : 1))
  const height = Math.round(image.height * (crop ? 1 - crop.top - crop.bottom : 1))
  const src = builder
    .image(source)
    .width(Math.min(displayWidth * 2, width))
    .fit('max')
    .auto('format')
    .url()
  return { src, width, height }
}
