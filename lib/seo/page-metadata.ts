import { stegaClean } from '@sanity/client/stega'
import type { Metadata } from 'next'
import { localizedPath } from '@/lib/i18n/localized-path'
import { locales, type Locale } from '@/lib/i18n/routing'
import { SHARE_IMAGE_SIZE } from './share-image'
import { siteUrl } from './site-url'

type PageMetadataInput = {
  locale: Locale
  /** The page's path without locale prefix, e.g. '/' or '/about'. */
  path: string
  title: string | null | undefined
  description: string | null | undefined
  siteName: string
  /** The home page's title stands alone; other pages get "Title | Brand" from the layout template. */
  absoluteTitle?: boolean
}

/**
 * Title, description, canonical URL, hreflang alternates (fr, en, x-default), Open Graph and the share
 * picture (summary_large_image), free of draft mode's invisible encoding. Every page folder has a `share-image.png` route that draws its picture
 * at build time from this title.
 */
export function pageMetadata(input: PageMetadataInput): Metadata {
  // Draft mode stega-encodes content strings; titles, descriptions and share pictures never carry it.
  const { locale, path, title, description, siteName, absoluteTitle } = stegaClean(input)
  const url = (target: Locale) => `${siteUrl}${localizedPath(path, target)}`
  const languages = Object.fromEntries(locales.map((target) => [target, url(target)]))
  const image = {
    url: `${siteUrl}${localizedPath(path === '/' ? '/share-image.png' : `${path}/share-image.png`, locale)}`,
    ...SHARE_IMAGE_SIZE,
    type: 'image/png',
    alt: title ?? siteName,
  }
  return {
    title: absoluteTitle ? { absolute: title ?? siteName } : (title ?? siteName),
    description: description ?? undefined,
    alternates: { canonical: url(locale), languages: { ...languages, 'x-default': url('fr') } },
    openGraph: {
      type: 'website',
      siteName,
      title: title ?? siteName,
      description: description ?? undefined,
      url: url(locale),
      locale: locale === 'fr' ? 'fr_FR' : 'en_GB',
      alternateLocale: locale === 'fr' ? ['en_GB'] : ['fr_FR'],
      images: [image],
    },
    // X and LinkedIn show the large picture; X reads the rest (title, description, image) from Open Graph.
    twitter: { card: 'summary_large_image' },
  }
}
