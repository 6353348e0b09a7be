'use client'

import { useParams } from 'next/navigation'
import { PageErrorMessage } from '@/components/sections/page-error-message'

/**
 * A page of the site that failed to render (in the browser: a chunk that could not load; on the
 * server: an error no page expects, its details in the server's log): the message in the site's
 * layout, in the page's language, instead of Next's English one.
 */
export default function SitePageError() {
  const { locale } = useParams<{ locale: string }>()
  return <PageErrorMessage locale={locale} />
}
