import type { Metadata } from 'next'
import { getTranslations } from 'next-intl/server'
import type { Locale } from '@/lib/i18n/routing'

/** The title of a page that answers NotFoundResponse: "Page introuvable | Brand" (Next adds the noindex). */
export async function notFoundMetadata(locale: Locale): Promise<Metadata> {
  const t = await getTranslations({ locale, namespace: 'NotFound' })
  return { title: t('metaTitle') }
}
