import type { MetadataRoute } from 'next'
import { siteUrl } from '@/lib/seo/site-url'

/** Crawl everything public; the Studio is excluded. The inbox is deliberately not named here. */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: ['/studio'] }],
    sitemap: `${siteUrl}/sitemap.xml`,
  }
}
