import type { Metadata } from 'next'
import { NotFoundResponse } from '@/components/sections/not-found-response'
import { pageLocale } from '@/lib/i18n/page-locale'
import { notFoundMetadata } from '@/lib/seo/not-found-metadata'

type Props = { params: Promise<{ locale: string }> }

// No path at build time, each rendered on its first visit like an unknown [service]: Next sets the 404
// status from NotFoundResponse only in such a prerender, a page rendered per request is answered 200.
export function generateStaticParams() {
  return []
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return notFoundMetadata(await pageLocale(params))
}

/** Any path no other route matches renders the localised 404 inside the site's layout. */
export default async function CatchAllPage({ params }: Props) {
  await pageLocale(params)
  return <NotFoundResponse />
}
