import 'server-only'
import { sanityFetchPublished } from '@/lib/sanity/fetch'
import { servicePageSlugsQuery } from '@/lib/sanity/queries'

/** The pages whose paths do not depend on content. */
export const FIXED_PAGES = ['/', '/about', '/contact', '/legal-notice', '/privacy-policy']

/**
 * Every public page, as its unprefixed path ('/', '/redaction-web', '/about', …): what the sitemap lists
 * in both languages and what a publish warms up (app/api/revalidate). Studio and inbox stay out.
 */
export async function publicPages(): Promise<string[]> {
  const slugs = await sanityFetchPublished(servicePageSlugsQuery, {})
  return [FIXED_PAGES[0], ...slugs.map((slug) => `/${slug}`), ...FIXED_PAGES.slice(1)]
}
