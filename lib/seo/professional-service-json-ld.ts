import { stegaClean } from '@sanity/client/stega'
import type { SiteSettings } from '@/lib/sanity/content-types'

/** schema.org ProfessionalService for the home page, from the site settings. */
export function professionalServiceJsonLd(settings: SiteSettings, url: string, description: string | null | undefined) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: settings.brandName,
    url,
    description: description ?? undefined,
    email: settings.email ?? undefined,
    telephone: settings.phone ?? undefined,
    address: { '@type': 'PostalAddress', addressLocality: settings.city ?? undefined, addressCountry: 'FR' },
    areaServed: 'FR',
    sameAs: [settings.socialLinks?.linkedin, settings.socialLinks?.instagram].filter(Boolean),
  }
}

/**
 * JSON for a <script type="application/ld+json">, with "<" escaped so content cannot close the tag and
 * without draft mode's invisible encoding (search engines would read it as text).
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(stegaClean(data)).replace(/</g, '\\u003c')
}
