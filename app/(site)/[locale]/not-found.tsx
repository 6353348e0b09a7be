import type { Metadata } from 'next'
import { NotFoundMessage } from '@/components/sections/not-found-message'
import { defaultLocale, isLocale } from '@/lib/i18n/routing'
import { notFoundMetadata } from '@/lib/seo/not-found-metadata'

/**
 * The 404 of both languages where notFound() reaches a boundary in the browser: after a client-side
 * navigation, and when a page's NotFoundResponse hydrates (components/sections/not-found-response.tsx).
 */
export default function NotFound() {
  return <NotFoundMessage />
}

/**
 * Its title, « Page introuvable »: a page whose NotFoundResponse a publish renders again in the
 * background gets its metadata from here rather than from its own generateMetadata (Next 16.4), and
 * would otherwise carry the layout's default title.
 */
export async function generateMetadata({ params }: { params: Promise<{ locale?: string }> }): Promise<Metadata> {
  const { locale } = await params
  return notFoundMetadata(locale && isLocale(locale) ? locale : defaultLocale)
}
