'use client'

import NextLink from 'next/link'
import { localizedPath } from '@/lib/i18n/localized-path'
import type { Locale } from '@/lib/i18n/routing'
import { useLocaleRoute } from '@/lib/i18n/use-locale-route'
import { usePageIdle } from '@/lib/page-idle'

/**
 * Shows the other language (EN on French pages, FR on English ones) and links to the same page in it.
 * Its accessible name starts with what it shows (WCAG 2.5.3 Label in Name: a speech-input user says
 * "click EN"), then says what it does: "EN – Switch to English".
 */
export function LanguageToggle({ label, className = '' }: { label: string; className?: string }) {
  const { locale, pathname } = useLocaleRoute()
  const other: Locale = locale === 'fr' ? 'en' : 'fr'
  const shown = other.toUpperCase()
  // Prefetched once the page is idle, as every link (lib/i18n/link.tsx).
  const idle = usePageIdle()
  return (
    // The other language's real URL (French at /, English at /en): shareable and indexable.
    <NextLink
      href={localizedPath(pathname, other)}
      hrefLang={other}
      lang={other}
      prefetch={idle ? undefined : false}
      aria-label={`${shown} – ${label}`}
      data-testid="language-toggle"
      className={`inline-flex min-h-10 min-w-10 items-center justify-center rounded-full border border-ink/15 px-3 text-sm font-semibold text-ink transition-colors hover:border-ink/40 hover:bg-sand ${className}`}
    >
      {shown}
    </NextLink>
  )
}
