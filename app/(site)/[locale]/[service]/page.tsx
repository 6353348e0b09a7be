import type { Metadata } from 'next'
import { OpenContactDialogButton } from '@/components/contact/open-contact-dialog-button'
import { SiteStylesheet } from '@/components/layout/site-stylesheet'
import { CtaBand } from '@/components/sections/cta-band'
import { NotFoundResponse } from '@/components/sections/not-found-response'
import { PackageCards } from '@/components/sections/package-cards'
import { buttonClasses } from '@/components/ui/button-styles'
import { Container } from '@/components/ui/container'
import { Glow } from '@/components/ui/glow'
import { FeatureCard } from '@/components/ui/feature-card'
import { Icon } from '@/components/ui/icon'
import { SectionHeading } from '@/components/ui/section-heading'
import { pageLocale } from '@/lib/i18n/page-locale'
import { locales } from '@/lib/i18n/routing'
import { sanityFetch, sanityFetchPublished } from '@/lib/sanity/fetch'
import { serviceNavQuery, servicePageQuery, servicePageSlugsQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { notFoundMetadata } from '@/lib/seo/not-found-metadata'
import { pageMetadata } from '@/lib/seo/page-metadata'

type Props = { params: Promise<{ locale: string; service: string }> }

export async function generateStaticParams() {
  const slugs = await sanityFetchPublished(servicePageSlugsQuery, {})
  return locales.flatMap((locale) => slugs.map((service) => ({ locale, service })))
}

/** The service and its page, or null for a slug no published service has (NotFoundResponse says why). */
async function loadService(params: Props['params']) {
  const locale = await pageLocale(params)
  const { service: slug } = await params
  const service = await sanityFetch(servicePageQuery, { locale, slug }).catch(async (error: unknown) => {
    // The Content Lake unreachable, for a page no one asked for before (a typo, an old link): when the
    // services the menu lists (kept from the last answer) have no such slug, it is a 404, not an error.
    const known = await sanityFetch(serviceNavQuery, { locale }).catch(() => null)
    if (known && !known.some((entry) => entry.slug === slug)) return null
    throw error
  })
  return { locale, slug, found: service?.page ? { service, page: service.page } : null }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale, slug, found } = await loadService(params)
  if (!found) return notFoundMetadata(locale)
  const { page } = found
  const settings = await sanityFetch(siteSettingsQuery, { locale })
  return pageMetadata({
    locale,
    path: `/${slug}`,
    title: page.seo?.title,
    description: page.seo?.description,
    siteName: settings?.brandName ?? '',
  })
}

export default async function ServicePage({ params }: Props) {
  const { locale, found } = await loadService(params)
  if (!found) return <NotFoundResponse />
  const { service, page } = found
  return (
    <>
      <section aria-labelledby="service-title" className="relative overflow-hidden">
        <Glow className="-top-48 -left-32 size-[32rem]" />
        <Container className="relative py-16 sm:py-24">
          <div className="max-w-3xl animate-rise">
            <p className="mb-5 inline-flex items-center gap-2 rounded-full border border-line bg-white px-4 py-1.5 text-sm font-semibold text-clay-strong">
              <Icon name={service.icon} className="size-4" />
              {page.hero?.eyebrow}
            </p>
            <h1 id="service-title" className="text-4xl leading-[1.08] font-semibold text-ink sm:text-5xl lg:text-6xl">
              {page.hero?.title}
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-muted sm:text-xl">{page.hero?.subtitle}</p>
            {page.highlight ? (
              <p
                className="mt-6 inline-flex animate-fade-in items-center gap-2 rounded-2xl bg-ink px-5 py-3 font-semibold text-paper"
                data-testid="service-highlight"
              >
                <Icon name="trending" className="size-5 text-clay-soft" />
                {page.highlight}
              </p>
            ) : null}
            <div className="mt-8 animate-fade-in">
              <a href="#packages" className={buttonClasses('primary', 'lg')} data-testid="service-hero-cta">
                {page.hero?.ctaLabel}
              </a>
            </div>
          </div>
        </Container>
      </section>
      <SiteStylesheet />
      <section aria-labelledby="features-title" className="render-when-visible py-20 sm:py-24">
        <Container>
          <SectionHeading id="features-title" title={page.featuresTitle} />
          <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {(page.features ?? []).map((feature) => (
              <li key={feature._key}>
                <FeatureCard
                  icon={feature.icon}
                  title={feature.title}
                  description={feature.description}
                  highlight={feature.highlight}
                />
              </li>
            ))}
          </ul>
        </Container>
      </section>
      <PackageCards page={page} locale={locale} />
      <CtaBand id="service-cta-title" title={page.closingCta?.title} text={page.closingCta?.text}>
        <OpenContactDialogButton variant="inverse" size="lg">
          {page.closingCta?.buttonLabel}
        </OpenContactDialogButton>
      </CtaBand>
    </>
  )
}
