import type { MetadataRoute } from 'next'
import { localizedPath } from '@/lib/i18n/localized-path'
import { locales } from '@/lib/i18n/routing'
import { publicPages } from '@/lib/seo/public-pages'
import { siteUrl } from '@/lib/seo/site-url'

/** Every public page in both languages, each with its hreflang alternates. Studio and inbox stay out. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const paths = await publicPages()
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
