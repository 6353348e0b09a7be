import type { Metadata } from 'next'
import { SiteStylesheet } from '@/components/layout/site-stylesheet'
import { BenefitsSection } from '@/components/sections/benefits-section'
import { ClientLogos } from '@/components/sections/client-logos'
import { CtaBand } from '@/components/sections/cta-band'
import { HomeHero } from '@/components/sections/home-hero'
import { ServicesSection } from '@/components/sections/services-section'
import { TestimonialsSection } from '@/components/sections/testimonials-section'
import { buttonClasses } from '@/components/ui/button-styles'
import { Link } from '@/lib/i18n/link'
import { pageLocale } from '@/lib/i18n/page-locale'
import { sanityFetch } from '@/lib/sanity/fetch'
import { homePageQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { pageMetadata } from '@/lib/seo/page-metadata'
import { professionalServiceJsonLd, serializeJsonLd } from '@/lib/seo/professional-service-json-ld'
import { siteUrl } from '@/lib/seo/site-url'

type Props = { params: Promise<{ locale: string }> }

/*
 * The home page exists in the two built languages only, and saying so keeps the router from guessing
 * pages. French URLs are rewritten (/linkedin-services is served by /fr/linkedin-services), so they have
 * the shape of the English home page (/en, the route /[locale]). Next's optimistic routing learns that
 * shape from the prefetched language toggle and then predicts every one-part French link as a home page
 * whose "locale" is the slug; the server answers 404 for that page segment and Next 16.4 retries
 * forever (vercel/next.js#96893): ~150 requests a second. A closed parameter turns prediction off
 * for this route, so French links are resolved by the server, once.
 */
export const dynamicParams = false

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params)
  const [home, settings] = await Promise.all([
    sanityFetch(homePageQuery, { locale }),
    sanityFetch(siteSettingsQuery, { locale }),
  ])
  return pageMetadata({
    locale,
    path: '/',
    title: home.page?.seo?.title,
    description: home.page?.seo?.description,
    siteName: settings?.brandName ?? '',
    absoluteTitle: true,
  })
}

export default async function HomePage({ params }: Props) {
  const locale = await pageLocale(params)
  const [home, settings] = await Promise.all([
    sanityFetch(homePageQuery, { locale }),
    sanityFetch(siteSettingsQuery, { locale }),
  ])
  const page = home.page
  if (!page?.hero || !settings) throw new Error('The home page document is missing from the dataset.')
  const jsonLd = professionalServiceJsonLd(
    settings,
    `${siteUrl}${locale === 'fr' ? '/' : '/en'}`,
    page.seo?.description,
  )

  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(jsonLd) }} />
      <HomeHero hero={page.hero} bookingUrl={settings.bookingUrl} bookingLabel={settings.bookingLabel} />
      <SiteStylesheet />
      <ServicesSection heading={page.servicesSection} services={home.services} />
      <BenefitsSection heading={page.benefitsSection} benefits={home.benefits} />
      <ClientLogos title={page.clientsSection?.title} clients={home.clients} />
      <TestimonialsSection heading={page.testimonialsSection} testimonials={home.testimonials} />
      <CtaBand id="home-cta-title" title={page.contactCta?.title} text={page.contactCta?.text}>
        <Link href="/contact" className={buttonClasses('inverse', 'lg')}>
          {page.contactCta?.buttonLabel}
        </Link>
        {settings.bookingUrl ? (
          <a
            href={settings.bookingUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses('accent', 'lg')}
          >
            {settings.bookingLabel}
          </a>
        ) : null}
      </CtaBand>
    </>
  )
}
