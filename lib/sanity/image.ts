import { createImageUrlBuilder } from '@sanity/image-url'
import { isSanityConfigured, sanityDataset, sanityProjectId } from './env'

/** The image projection every query returns (see `imageFields` in queries.ts). */
export type SanityImageData = {
  url: string | null
  width: number | null
  height: number | null
  ref: string | null
  alt?: string | null
}

export type ImageSource = { src: string; width: number; height: number }

const builder = isSanityConfigured
  ? createImageUrlBuilder({ projectId: sanityProjectId, dataset: sanityDataset })
  : null

/**
 * URL and intrinsic size for next/image, in both modes. Hosted images are resized and converted by
 * Sanity's CDN (so next/image need not optimise them); seed images are SVGs served as they are.
 */
export function imageSource(image: SanityImageData | null | undefined, displayWidth: number): ImageSource | null {
  if (!image?.url || !image.width || !image.height) return null
  const isSvg = image.url.endsWith('.svg')
  const src =
    builder && image.ref && !isSvg
      ? builder.image(image.ref).width(Math.min(displayWidth * 2, image.width)).fit('max').auto('format').url()
      : image.url
  return { src, width: image.width, height: image.height }
}
