import { stegaClean } from '@sanity/client/stega'
import type { Metadata, Viewport } from 'next'
import { notFound } from 'next/navigation'
import { getTranslations, setRequestLocale } from 'next-intl/server'
import type { ReactNode } from 'react'
import { ContactDialogProvider } from '@/components/contact/contact-dialog-context'
import { ScrollToTop } from '@/components/layout/scroll-to-top'
import { SiteFooter } from '@/components/layout/site-footer'
import { SiteHeader } from '@/components/layout/site-header'
import { SiteStylesheet } from '@/components/layout/site-stylesheet'
import { DraftModeTools } from '@/components/preview/draft-mode-tools'
import { Toaster } from '@/components/ui/toaster'
import { getContactCopy } from '@/lib/contact/get-contact-copy'
import { fraunces, inter } from '@/lib/fonts'
import { isLocale, locales } from '@/lib/i18n/routing'
import { sanityFetch } from '@/lib/sanity/fetch'
import { serviceNavQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { siteUrl } from '@/lib/seo/site-url'
import '../../first-screen.css'

type LayoutProps = { children: ReactNode; params: Promise<{ locale: string }> }

export function generateStaticParams() {
  return locales.map((locale) => ({ locale }))
}

export const viewport: Viewport = { themeColor: '#fbf8f3', width: 'device-width', initialScale: 1 }

export async function generateMetadata({ params }: LayoutProps): Promise<Metadata> {
  const { locale } = await params
  if (!isLocale(locale)) return {}
  // Draft mode stega-encodes content strings: the document's title never carries the encoding.
  const settings = stegaClean(await sanityFetch(siteSettingsQuery, { locale }))
  return {
    metadataBase: new URL(siteUrl),
    title: {
      default: settings?.seo?.title ?? settings?.brandName ?? '',
      template: `%s | ${settings?.brandName ?? ''}`,
    },
    description: settings?.seo?.description ?? undefined,
    applicationName: settings?.brandName ?? undefined,
  }
}

export default async function SiteLayout({ children, params }: LayoutProps) {
  const { locale } = await params
  if (!isLocale(locale)) notFound()
  setRequestLocale(locale)
  const [settings, services] = await Promise.all([
    sanityFetch(siteSettingsQuery, { locale }),
    sanityFetch(serviceNavQuery, { locale }),
  ])
  if (!settings) throw new Error('The site settings document is missing from the dataset.')
  const [t, contactCopy] = await Promise.all([getTranslations('ContactForm'), getContactCopy(locale)])
  const navServices = services.map((service) => ({ slug: service.slug ?? '', title: service.title ?? '' }))

  return (
    <html lang={locale} className={`${inter.variable} ${fraunces.variable}`}>
      <body className="flex min-h-dvh flex-col">
        {/* No NextIntlClientProvider: client components get their texts as props (first-load JS budget). */}
        <ContactDialogProvider copy={contactCopy}>
          <ScrollToTop />
          <SiteHeader brandName={settings.brandName ?? ''} services={navServices} />
          <main id="main" tabIndex={-1} className="flex-1 pt-[4.5rem] outline-none">
            {children}
          </main>
          <SiteFooter settings={settings} services={navServices} />
          <SiteStylesheet />
          <Toaster dismissLabel={t('dismiss')} />
        </ContactDialogProvider>
        <DraftModeTools />
      </body>
    </html>
  )
}
