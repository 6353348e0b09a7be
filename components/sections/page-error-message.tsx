'use client'

import { buttonClasses } from '@/components/ui/button-styles'
import { Container } from '@/components/ui/container'
import { pageErrorCopy } from '@/lib/i18n/page-error-copy'

/**
 * A page that failed, in the site's layout: what happened in the page's language, a way to try again
 * and a way home. Both load the page whole: a chunk that failed to load stays failed for the page that
 * asked for it (Next's retry renders it again with the same failure), and a server error is asked again.
 */
export function PageErrorMessage({ locale }: { locale: unknown }) {
  const copy = pageErrorCopy(locale)
  return (
    <Container className="flex min-h-[60vh] flex-col items-center justify-center py-24 text-center">
      <h1 className="text-3xl font-semibold text-ink sm:text-4xl" data-testid="page-error-title">
        {copy.title}
      </h1>
      <p className="mt-4 max-w-md text-lg text-muted">{copy.description}</p>
      <div className="mt-10 flex flex-wrap justify-center gap-4">
        <button type="button" onClick={() => location.reload()} className={buttonClasses('primary', 'lg')}>
          {copy.retry}
        </button>
        <a href={copy.home} className={buttonClasses('secondary', 'lg')}>
          {copy.backHome}
        </a>
      </div>
    </Container>
  )
}
