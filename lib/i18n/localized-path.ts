import { defaultLocale, locales, type Locale } from './routing'

/**
 * The public URL path of a page in a language: French has no prefix, English lives under /en
 * ('/about' → '/en/about', '/' → '/en', '/#benefits' → '/en#benefits'). Pure, for server and client.
 */
export function localizedPath(href: string, locale: Locale): string {
  if (locale === defaultLocale) return href
  if (href === '/') return `/${locale}`
  if (href.startsWith('/#') || href.startsWith('/?')) return `/${locale}${href.slice(1)}`
  return `/${locale}${href}`
}

/**
 * A pathname without its locale prefix ('/en/about' → '/about', '/fr' → '/'). The router reports
 * French pages as '/about' in the browser but as the rewritten '/fr/about' while prerendering; both
 * give the same answer here.
 */
export function unlocalizedPath(pathname: string): string {
  for (const locale of locales) {
    if (pathname === `/${locale}`) return '/'
    if (pathname.startsWith(`/${locale}/`)) return pathname.slice(locale.length + 1)
  }
  return pathname
}
