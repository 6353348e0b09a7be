'use client'

import NextLink from 'next/link'
import { useLocale } from 'next-intl'
import { getPathname, usePathname } from '@/lib/i18n/navigation'
import type { Locale } from '@/lib/i18n/routing'

/** Shows the other language (EN on French pages, FR on English ones) and links to the same page in it. */
export function LanguageToggle({ label, className = '' }: { label: string; className?: string }) {
  const locale = useLocale() as Locale
  const pathname = usePathname()
  const other: Locale = locale === 'fr' ? 'en' : 'fr'
  return (
    // A plain link to the other language's real URL: next-intl's Link would go through /fr/… to set a
    // locale cookie, which this site does not use (French is always at /, English at /en).
    <NextLink
      href={getPathname({ href: pathname, locale: other })}
      hrefLang={other}
      lang={other}
      aria-label={label}
      data-testid="language-toggle"
      className={`inline-flex min-h-10 min-w-10 items-center justify-center rounded-full border border-ink/15 px-3 text-sm font-semibold text-ink transition-colors hover:border-ink/40 hover:bg-sand ${className}`}
    >
      {other.toUpperCase()}
    </NextLink>
  )
}
