import { getTranslations } from 'next-intl/server'
import { Container } from '@/components/ui/container'
import { RichText } from '@/components/ui/rich-text'
import { calendarDay } from '@/lib/i18n/calendar-day'
import type { Locale } from '@/lib/i18n/routing'
import type { LegalPage } from '@/lib/sanity/content-types'

/** A legal text: title, last update and its numbered sections. */
export async function LegalDocument({ page, locale }: { page: LegalPage; locale: Locale }) {
  const t = await getTranslations('Common')
  return (
    <Container className="py-16 sm:py-20">
      <article className="mx-auto max-w-3xl">
        <h1 className="text-4xl font-semibold text-ink sm:text-5xl">{page.title}</h1>
        {page.updatedAt ? (
          <p className="mt-4 text-muted">{t('updatedAt', { date: calendarDay(page.updatedAt, locale) })}</p>
        ) : null}
        <div className="mt-12 space-y-12">
          {(page.sections ?? []).map((section, index) => (
            <section key={section._key} aria-labelledby={`section-${section._key}`} data-testid="legal-section">
              <h2 id={`section-${section._key}`} className="text-2xl font-semibold text-ink">
                <span className="mr-2 text-clay">{index + 1}.</span>
                {section.heading}
              </h2>
              <div className="mt-4 text-lg">
                <RichText value={section.body} />
              </div>
            </section>
          ))}
        </div>
      </article>
    </Container>
  )
}
