import { notFound } from 'next/navigation'
import { pageLocale } from '@/lib/i18n/page-locale'

type Props = { params: Promise<{ locale: string }> }

/** Any path no other route matches renders the localised 404 inside the site's layout. */
export default async function CatchAllPage({ params }: Props) {
  await pageLocale(params)
  notFound()
}
