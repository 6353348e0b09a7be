/** Every public page, without locale prefix; English adds /en in front. */
export const SERVICE_SLUGS = ['linkedin-services', 'redaction-web', 'campagnes-email', 'strategie-contenu'] as const
export const PUBLIC_PATHS = [
  '/',
  ...SERVICE_SLUGS.map((slug) => `/${slug}`),
  '/about',
  '/contact',
  '/legal-notice',
  '/privacy-policy',
]
/**
 * One page of each layout: the four service pages share one (app/(site)/[locale]/[service]), the two
 * legal pages another (LegalDocument). For checks of what a layout does (a phone's width, the fixed
 * header over the focus) rather than of what each page says.
 */
export const LAYOUT_PATHS = ['/', `/${SERVICE_SLUGS[0]}`, '/about', '/contact', '/legal-notice']

export function localized(path: string, locale: 'fr' | 'en'): string {
  if (locale === 'fr') return path
  return path === '/' ? '/en' : `/en${path}`
}
