import { useParams, usePathname } from 'next/navigation'
import { unlocalizedPath } from './localized-path'
import { defaultLocale, isLocale, type Locale } from './routing'

/**
 * The current language (the [locale] route segment) and the page's path without locale prefix, for
 * client components. Read from the router rather than next-intl's client context, so the site ships
 * no client-side message runtime.
 */
export function useLocaleRoute(): { locale: Locale; pathname: string } {
  const params = useParams<{ locale?: string }>()
  const pathname = usePathname()
  return {
    locale: isLocale(params?.locale) ? params.locale : defaultLocale,
    pathname: unlocalizedPath(pathname ?? '/'),
  }
}
