import type { MetadataRoute } from 'next'
import { localizedPath } from '@/lib/i18n/localized-path'
import { locales } from '@/lib/i18n/routing'
import { sanityFetch } from '@/lib/sanity/fetch'
import { servicePageSlugsQuery } from '@/lib/sanity/queries'
import { siteUrl } from '@/lib/seo/site-url'

/** Every public page in both languages, each with its hreflang alternates. Studio and inbox stay out. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const slugs = await sanityFetch(servicePageSlugsQuery, {}, ['service'])
  const paths = ['/', ...slugs.map((slug) => `/${slug}`), '/about', '/contact', '/legal-notice', '/privacy-policy']
  const url = (href: string, locale: (typeof locales)[number]) => `${siteUrl}${localizedPath(href, locale)}`
  return paths.flatMap((href) =>
    locales.map((locale) => ({
      url: url(href, locale),
      changeFrequency: 'monthly' as const,
      priority: href === '/' ? 1 : 0.7,
      alternates: { languages: Object.fromEntries(locales.map((other) => [other, url(href, other)])) },
    })),
  )
}
