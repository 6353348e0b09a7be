/** Every public page, without locale prefix; English adds /en in front. */
export const SERVICE_SLUGS = ['linkedin-services', 'redaction-web', 'campagnes-email', 'strategie-contenu'] as const
export const PUBLIC_PATHS = ['/', ...SERVICE_SLUGS.map((slug) => `/${slug}`), '/about', '/contact', '/legal-notice', '/privacy-policy']

export function localized(path: string, locale: 'fr' | 'en'): string {
  if (locale === 'fr') return path
  return path === '/' ? '/en' : `/en${path}`
}
