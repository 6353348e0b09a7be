import { getTranslations } from 'next-intl/server'
import { buttonClasses } from '@/components/ui/button-styles'
import { Container } from '@/components/ui/container'
import { Link } from '@/lib/i18n/link'

/** The 404's words in the page's language: 'Oops! Page not found' and a way home. */
export async function NotFoundMessage() {
  const t = await getTranslations('NotFound')
  return (
    <Container className="flex min-h-[60vh] flex-col items-center justify-center py-24 text-center">
      <p className="font-display text-7xl font-semibold text-clay sm:text-8xl" aria-hidden="true">
        404
      </p>
      <h1 className="mt-6 text-3xl font-semibold text-ink sm:text-4xl">{t('title')}</h1>
      <p className="mt-4 max-w-md text-lg text-muted">{t('description')}</p>
      <Link href="/" className={buttonClasses('primary', 'lg', 'mt-10')} data-testid="not-found-home">
        {t('backHome')}
      </Link>
    </Container>
  )
}
