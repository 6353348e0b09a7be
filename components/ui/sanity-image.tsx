import type { ImageSource } from '@/lib/sanity/image'

type Props = {
  source: ImageSource
  alt: string
  /** The CSS width the image is shown at, per viewport: the browser picks the `srcset` file from it. */
  sizes: string
  className?: string
  /** The page's main image: fetched first (high priority), not lazily, as next/image's `priority`, and
   *  never announced to other pages (below). */
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
  const image = (
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
  // React's RSC renderer makes every eager <img> a preload hint of the page's payload (react-dom's
  // preload() and <link rel="preload"> too), and the router applies the hints of a page as soon as its
  // prefetch arrives: every page linking to the about page downloaded its photo. Inside <picture> it
  // makes none (a <source> there may pick another file); `contents` leaves the layout to the <img>.
  return priority ? <picture className="contents">{image}</picture> : image
}
