import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { LegalDocument } from '@/components/sections/legal-document'
import { pageLocale } from '@/lib/i18n/page-locale'
import { sanityFetch } from '@/lib/sanity/fetch'
import { legalPageQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { pageMetadata } from '@/lib/seo/page-metadata'
// A type only (erased when compiled): the site does not load the Studio's schema code.
import type { LEGAL_PAGE_SLUGS } from '@/schemas/documents/legal-page'

type Props = { params: Promise<{ locale: string }> }

/**
 * The legal notice and the privacy policy are one route twice: a legalPage document found by its
 * slug, which is also the route's path. Each page.tsx re-exports what this returns, so both keep
 * their own generateMetadata (their share-image.png routes draw from it) and default export.
 */
export function legalPageRoute(slug: (typeof LEGAL_PAGE_SLUGS)[number]) {
  async function generateMetadata({ params }: Props): Promise<Metadata> {
    const locale = await pageLocale(params)
    const [page, settings] = await Promise.all([
      sanityFetch(legalPageQuery, { locale, slug }),
      sanityFetch(siteSettingsQuery, { locale }),
    ])
    return pageMetadata({
      locale,
      path: `/${slug}`,
      title: page?.seo?.title ?? page?.title,
      description: page?.seo?.description,
      siteName: settings?.brandName ?? '',
    })
  }

  async function LegalPage({ params }: Props) {
    const locale = await pageLocale(params)
    const page = await sanityFetch(legalPageQuery, { locale, slug })
    if (!page) notFound()
    return <LegalDocument page={page} locale={locale} />
  }

  return { generateMetadata, LegalPage }
}
