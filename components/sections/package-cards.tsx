import { OpenContactDialogButton } from '@/components/contact/open-contact-dialog-button'
import { Container } from '@/components/ui/container'
import { Icon } from '@/components/ui/icon'
import { SectionHeading } from '@/components/ui/section-heading'
import type { Locale } from '@/lib/i18n/routing'
import type { ServicePage } from '@/lib/sanity/content-types'

type Page = NonNullable<ServicePage['page']>

/** #packages: three package cards, the featured (middle) one highlighted with a popular badge. */
export function PackageCards({ page, locale }: { page: Page; locale: Locale }) {
  return (
    <section
      id="packages"
      aria-labelledby="packages-title"
      className="render-when-visible scroll-mt-24 bg-sand py-20 sm:py-24"
    >
      <Container>
        <SectionHeading id="packages-title" title={page.packagesTitle} intro={page.packagesIntro} />
        <ul className="mt-14 grid items-stretch gap-6 lg:grid-cols-3">
          {(page.packages ?? []).map((pack) => (
            <li
              key={pack._key}
              data-testid="package-card"
              data-featured={pack.featured ? 'true' : 'false'}
              className={`relative flex flex-col rounded-card p-7 sm:p-8 ${
                pack.featured
                  ? 'bg-night text-paper shadow-lift ring-2 ring-clay lg:-my-4 lg:py-12'
                  : 'border border-line bg-white shadow-card'
              }`}
            >
              {pack.featured ? (
                <p
                  className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-clay px-4 py-1 text-sm font-semibold text-white"
                  data-testid="popular-badge"
                >
                  {page.popularLabel}
                </p>
              ) : null}
              <h3 className={`font-display text-2xl font-semibold ${pack.featured ? 'text-white' : 'text-ink'}`}>
                {pack.name}
              </h3>
              <p className={`mt-2 text-lg font-semibold ${pack.featured ? 'text-clay-soft' : 'text-clay-strong'}`}>
                {pack.volume}
              </p>
              <ul className="mt-6 flex-1 space-y-3">
                {(pack.features ?? []).map((feature) => (
                  <li key={feature} className={`flex gap-3 ${pack.featured ? 'text-paper/90' : 'text-ink-soft'}`}>
                    <Icon
                      name="check"
                      className={`mt-0.5 size-5 shrink-0 ${pack.featured ? 'text-clay-soft' : 'text-clay'}`}
                    />
                    {feature}
                  </li>
                ))}
              </ul>
              <OpenContactDialogButton
                packageName={pack.name}
                // « Choisir ce forfait : Starter » (a no-break space before the colon), « Choose this
                // package: Starter ». A label, not hidden text: browsers join a visually hidden span to
                // the text before it with a space.
                label={`${page.chooseLabel ?? ''}${locale === 'fr' ? '\u00a0: ' : ': '}${pack.name ?? ''}`}
                variant={pack.featured ? 'accent' : 'primary'}
                size="lg"
                className="mt-8 w-full"
              >
                {page.chooseLabel}
              </OpenContactDialogButton>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}
