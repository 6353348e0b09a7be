import type { Metadata } from 'next'
import { LazyContactForm } from '@/components/contact/lazy-contact-form'
import { SiteStylesheet } from '@/components/layout/site-stylesheet'
import { ContactDetails } from '@/components/sections/contact-details'
import { buttonClasses } from '@/components/ui/button-styles'
import { Container } from '@/components/ui/container'
import { Glow } from '@/components/ui/glow'
import { FeatureCard } from '@/components/ui/feature-card'
import { getContactCopy } from '@/lib/contact/get-contact-copy'
import { pageLocale } from '@/lib/i18n/page-locale'
import { sanityFetch } from '@/lib/sanity/fetch'
import { contactPageQuery, siteSettingsQuery } from '@/lib/sanity/queries'
import { pageMetadata } from '@/lib/seo/page-metadata'

type Props = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params)
  const [page, settings] = await Promise.all([
    sanityFetch(contactPageQuery, { locale }),
    sanityFetch(siteSettingsQuery, { locale }),
  ])
  return pageMetadata({
    locale,
    path: '/contact',
    title: page?.seo?.title,
    description: page?.seo?.description,
    siteName: settings?.brandName ?? '',
  })
}

export default async function ContactPage({ params }: Props) {
  const locale = await pageLocale(params)
  const [page, settings, copy] = await Promise.all([
    sanityFetch(contactPageQuery, { locale }),
    sanityFetch(siteSettingsQuery, { locale }),
    getContactCopy(locale),
  ])
  if (!page || !settings) throw new Error('The contact page document is missing from the dataset.')

  return (
    <>
      <section aria-labelledby="contact-title" className="relative overflow-hidden">
        <Glow className="-top-40 -right-40 size-[30rem]" />
        <Container className="relative py-16 sm:py-20">
          <h1 id="contact-title" className="max-w-3xl text-4xl leading-[1.1] font-semibold text-ink sm:text-5xl">
            {page.hero?.title}
          </h1>
          <p className="mt-6 max-w-2xl text-lg leading-relaxed text-muted sm:text-xl">{page.hero?.intro}</p>
        </Container>
      </section>
      <SiteStylesheet />
      <Container className="grid gap-12 pb-20 lg:grid-cols-[1fr_1.4fr]">
        <div className="space-y-10">
          <ContactDetails title={page.detailsTitle} settings={settings} />
          {settings.bookingUrl ? (
            <a
              href={settings.bookingUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses('secondary', 'lg', 'w-full')}
            >
              {settings.bookingLabel}
            </a>
          ) : null}
        </div>
        <section
          aria-labelledby="contact-form-title"
          className="rounded-card border border-line bg-white p-6 shadow-card sm:p-8"
          data-testid="contact-form-section"
        >
          <h2 id="contact-form-title" className="text-2xl font-semibold text-ink">
            {page.formTitle}
          </h2>
          <p className="mt-2 mb-6 text-muted">{page.formIntro}</p>
          <LazyContactForm variant="page" copy={copy} />
        </section>
      </Container>
      <section aria-labelledby="why-title" className="render-when-visible bg-sand py-20 sm:py-24">
        <Container>
          <h2 id="why-title" className="text-center text-3xl font-semibold text-ink sm:text-4xl">
            {page.whyTitle}
          </h2>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {(page.reasons ?? []).map((reason) => (
              <li key={reason._key} data-testid="why-card">
                <FeatureCard
                  icon={reason.icon}
                  title={reason.title}
                  description={reason.description}
                  highlight={reason.highlight}
                />
              </li>
            ))}
          </ul>
        </Container>
      </section>
    </>
  )
}
