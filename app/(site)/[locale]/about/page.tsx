import type { Metadata } from 'next'
import { SiteStylesheet } from '@/components/layout/site-stylesheet'
import { CtaBand } from '@/components/sections/cta-band'
import { buttonClasses } from '@/components/ui/button-styles'
import { Container } from '@/components/ui/container'
import { FeatureCard } from '@/components/ui/feature-card'
import { RichText } from '@/components/ui/rich-text'
import { SanityImage } from '@/components/ui/sanity-image'
import { SectionHeading } from '@/components/ui/section-heading'
import { Link } from '@/lib/i18n/link'
import { pageLocale } from '@/lib/i18n/page-locale'
import { sanityFetch } from '@/lib/sanity/fetch'
import { imageSource } from '@/lib/sanity/image'
import { aboutPageQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { pageMetadata } from '@/lib/seo/page-metadata'

type Props = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params)
  const [page, settings] = await Promise.all([
    sanityFetch(aboutPageQuery, { locale }),
    sanityFetch(siteSettingsQuery, { locale }),
  ])
  return pageMetadata({
    locale,
    path: '/about',
    title: page?.seo?.title,
    description: page?.seo?.description,
    siteName: settings?.brandName ?? '',
  })
}

export default async function AboutPage({ params }: Props) {
  const locale = await pageLocale(params)
  const page = await sanityFetch(aboutPageQuery, { locale })
  if (!page) throw new Error('The about page document is missing from the dataset.')
  // At most max-w-sm (24rem) wide; below 26.5rem the viewport less the container's 1.25rem gutters.
  const photo = imageSource(page.photo, 384)

  return (
    <>
      <section aria-labelledby="about-title">
        <Container className="grid items-center gap-12 py-16 sm:py-24 lg:grid-cols-[1.2fr_1fr]">
          <div className="animate-rise">
            <p className="mb-4 text-sm font-semibold tracking-[0.14em] text-clay uppercase">{page.hero?.eyebrow}</p>
            <h1 id="about-title" className="text-4xl leading-[1.1] font-semibold text-ink sm:text-5xl">
              {page.hero?.title}
            </h1>
            <p className="mt-6 text-lg leading-relaxed text-muted sm:text-xl">{page.hero?.intro}</p>
            <div className="mt-8 text-lg">
              <RichText value={page.story} />
            </div>
          </div>
          {photo ? (
            <div className="relative mx-auto w-full max-w-sm">
              <div
                aria-hidden="true"
                className="absolute inset-0 translate-x-4 translate-y-4 rounded-[2rem] bg-clay-soft"
              />
              <SanityImage
                source={photo}
                sizes="(min-width: 26.5rem) 24rem, calc(100vw - 2.5rem)"
                alt={page.photo?.alt ?? ''}
                priority
                className="relative h-auto w-full rounded-[2rem] border border-line bg-white shadow-lift"
                data-testid="founder-photo"
              />
            </div>
          ) : null}
        </Container>
      </section>
      <SiteStylesheet />
      <section aria-labelledby="journey-title" className="render-when-visible bg-sand py-20 sm:py-24">
        <Container>
          <SectionHeading id="journey-title" title={page.journeyTitle} />
          <ol className="mt-14 grid gap-6 md:grid-cols-3">
            {(page.journey ?? []).map((step) => (
              <li key={step._key} data-testid="journey-card">
                <FeatureCard
                  icon={step.icon}
                  title={step.title}
                  description={step.description}
                  highlight={step.highlight}
                />
              </li>
            ))}
          </ol>
        </Container>
      </section>
      <section aria-labelledby="passions-title" className="render-when-visible py-20 sm:py-24">
        <Container>
          <SectionHeading id="passions-title" title={page.passionsTitle} />
          <ul className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
            {(page.passions ?? []).map((passion) => (
              <li key={passion._key} data-testid="passion-card">
                <FeatureCard
                  icon={passion.icon}
                  title={passion.title}
                  description={passion.description}
                  highlight={passion.highlight}
                />
              </li>
            ))}
          </ul>
        </Container>
      </section>
      <section aria-labelledby="values-title" className="render-when-visible bg-sand py-20 sm:py-24">
        <Container>
          <SectionHeading id="values-title" title={page.valuesTitle} />
          <ul className="mt-14 grid gap-6 md:grid-cols-3">
            {(page.values ?? []).map((value) => (
              <li key={value._key} data-testid="value-card">
                <FeatureCard
                  icon={value.icon}
                  title={value.title}
                  description={value.description}
                  highlight={value.highlight}
                />
              </li>
            ))}
          </ul>
        </Container>
      </section>
      <CtaBand id="about-cta-title" title={page.cta?.title} text={page.cta?.text}>
        <Link href="/contact" className={buttonClasses('inverse', 'lg')} data-testid="about-contact-button">
          {page.cta?.buttonLabel}
        </Link>
      </CtaBand>
    </>
  )
}
