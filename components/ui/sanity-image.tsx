import type { ImageSource } from '@/lib/sanity/image'

type Props = {
  source: ImageSource
  alt: string
  /** The CSS width the image is shown at, per viewport: the browser picks the `srcset` file from it. */
  sizes: string
  className?: string
  /** The page's main image: fetched first (high priority), not lazily, as next/image's `priority`. Not
   *  announced in the head: a preload, whether react-dom's preload() or a <link> element, becomes a hint
   *  of the page's RSC payload, which the router applies as soon as a prefetch of the page arrives, so
   *  every page linking here downloaded a photo it never shows. The <img> is early in the page's HTML,
   *  where the browser's preload scanner finds it anyway. */
  priority?: boolean
  'data-testid'?: string
}

/**
 * An image of the content, rendered on the server as a plain <img>: next/image with `unoptimized`
 * drops any `srcset` given to it, and its optimizer is not needed (the image pipeline resizes). The
 * width and height attributes keep the image's box from the first paint (no layout shift); the
 * placeholder is the asset's lqip as a background, which the loaded (opaque) image covers.
 */
export function SanityImage({ source, alt, sizes, className, priority = false, ...rest }: Props) {
  const srcSet = source.srcSet
  return (
    // eslint-disable-next-line @next/next/no-img-element -- see above: next/image cannot carry this srcset
    <img
      src={source.src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      width={source.width}
      height={source.height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={className}
      style={
        source.placeholder
          ? { backgroundImage: `url("${source.placeholder}")`, backgroundSize: 'cover', backgroundPosition: 'center' }
          : undefined
      }
      data-testid={rest['data-testid']}
    />
  )
}
