import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { LegalDocument } from '@/components/sections/legal-document'
import { pageLocale } from '@/lib/i18n/page-locale'
import { sanityFetch } from '@/lib/sanity/fetch'
import { legalPageQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { pageMetadata } from '@/lib/seo/page-metadata'

type Props = { params: Promise<{ locale: string }> }
const slug = 'legal-notice'

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params)
  const [page, settings] = await Promise.all([
    sanityFetch(legalPageQuery, { locale, slug }, ['legalPage']),
    sanityFetch(siteSettingsQuery, { locale }, ['siteSettings']),
  ])
  return pageMetadata({
    locale,
    path: `/${slug}`,
    title: page?.seo?.title ?? page?.title,
    description: page?.seo?.description,
    siteName: settings?.brandName ?? '',
  })
}

export default async function LegalPage({ params }: Props) {
  const locale = await pageLocale(params)
  const page = await sanityFetch(legalPageQuery, { locale, slug }, ['legalPage'])
  if (!page) notFound()
  return <LegalDocument page={page} />
}
