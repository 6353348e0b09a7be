import { createClient, type SanityClient } from '@sanity/client'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  aboutPageQuery,
  contactPageQuery,
  homePageQuery,
  legalPageQuery,
  servicePageQuery,
  servicePageSlugsQuery,
  serviceNavQuery,
  siteSettingsQuery,
} from '@/lib/sanity/queries'
import { startContentLake, type ContentLake } from '@plume/twins/content-lake'

// The site's queries, through the same client options the site uses, against a local Content Lake
// seeded from studio/seed: what the pages get, in both languages.
let lake: ContentLake
let sanity: SanityClient
beforeAll(async () => {
  lake = await startContentLake({
    port: 0,
    seedDir: join(process.cwd(), 'studio', 'seed'),
    webhookUrl: null,
    log: () => {},
  })
  sanity = createClient({
    projectId: lake.projectId,
    dataset: lake.dataset,
    apiVersion: '2025-10-01',
    useCdn: false,
    perspective: 'published',
    apiHost: lake.url,
    useProjectHostname: false,
  })
})
afterAll(() => lake?.close())

const fetchQuery = (query: string, params: Record<string, unknown> = {}) => sanity.fetch(query, params)

const LOCALES = ['fr', 'en'] as const
const SERVICE_SLUGS = ['linkedin-services', 'redaction-web', 'campagnes-email', 'strategie-contenu']
// Fields that are optional by design: a card without a claim, a service without a page, no blur hash
// offline, images the editor never cropped.
const OPTIONAL = new Set(['highlight', 'slug', 'lqip', 'crop', 'hotspot'])
// Portable Text bookkeeping that is legitimately empty.
const STRUCTURAL = new Set(['markDefs', 'marks'])

/** Paths of every null, undefined or blank value in a query result (the "missing translation" check). */
function emptyFields(value: unknown, path = '$'): string[] {
  if (value === null || value === undefined) return [path]
  if (typeof value === 'string') return value.trim() === '' ? [path] : []
  if (Array.isArray(value))
    return value.length === 0 ? [path] : value.flatMap((item, index) => emptyFields(item, `${path}[${index}]`))
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) =>
      STRUCTURAL.has(key) || (OPTIONAL.has(key) && (child === null || child === undefined))
        ? []
        : emptyFields(child, `${path}.${key}`),
    )
  }
  return []
}

type Home = {
  page: { hero: { trustLines: string[]; projectsClaim: string } }
  services: { slug: string | null }[]
  benefits: { highlight: string | null }[]
  clients: { logo: { url: string; width: number; height: number } }[]
  testimonials: { rating: number }[]
}
type Service = {
  page: {
    highlight: string | null
    features: unknown[]
    packages: { name: string; volume: string; features: string[]; featured: boolean }[]
  }
}

describe.each(LOCALES)('content queries in %s', (locale) => {
  it('site settings are complete', async () => {
    const settings = (await fetchQuery(siteSettingsQuery, { locale })) as Record<string, unknown>
    expect(emptyFields(settings)).toEqual([])
    expect(settings.copyrightYear).toBe(2025)
    expect(settings.city).toBe('Paris')
  })

  it('navigation lists the four routed services in order', async () => {
    const nav = (await fetchQuery(serviceNavQuery, { locale })) as { slug: string }[]
    expect(nav.map((service) => service.slug)).toEqual(SERVICE_SLUGS)
    expect(emptyFields(nav)).toEqual([])
  })

  it('home page is complete and matches the spec counts', async () => {
    const home = (await fetchQuery(homePageQuery, { locale })) as Home
    expect(emptyFields(home)).toEqual([])
    expect(home.page.hero.trustLines).toHaveLength(3)
    expect(home.page.hero.projectsClaim).toContain('20+')
    expect(home.services).toHaveLength(6)
    expect(home.services.filter((service) => service.slug).map((service) => service.slug)).toEqual(SERVICE_SLUGS)
    expect(home.benefits).toHaveLength(6)
    const claims = home.benefits.map((benefit) => benefit.highlight ?? '').join(' | ')
    expect(claims).toContain('500+')
    expect(claims).toContain('98')
    expect(claims).toContain(locale === 'fr' ? '7 jours sur 7' : '24/7')
    expect(home.clients).toHaveLength(7)
    for (const client of home.clients) {
      expect(client.logo.url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/images\/local\/production\/[0-9a-f]{40}-\d+x\d+\.svg$/,
      )
      expect(client.logo.width).toBeGreaterThan(0)
      expect(client.logo.height).toBeGreaterThan(0)
    }
    expect(home.testimonials.map((testimonial) => testimonial.rating)).toEqual([4, 4, 5])
  })

  it.each(SERVICE_SLUGS)(
    'service page %s is complete with 6 features and 3 packages, the middle featured',
    async (slug) => {
      const service = (await fetchQuery(servicePageQuery, { locale, slug })) as Service
      expect(emptyFields(service)).toEqual([])
      expect(service.page.features).toHaveLength(6)
      expect(service.page.packages).toHaveLength(3)
      expect(service.page.packages.map((pack) => pack.featured)).toEqual([false, true, false])
      // No prices anywhere: the only euro amounts are the email page's 42 € per 1 € claim.
      const { highlight, ...rest } = service.page
      expect(JSON.stringify(rest)).not.toContain('€')
      if (slug === 'campagnes-email')
        expect(highlight).toMatch(locale === 'fr' ? /^42 € .* 1 € investi/ : /^€42 .* €1 invested/)
      else expect(highlight ?? '').not.toContain('€')
    },
  )

  it('about, contact and legal pages are complete', async () => {
    const about = (await fetchQuery(aboutPageQuery, { locale })) as {
      journey: unknown[]
      passions: unknown[]
      values: unknown[]
    }
    expect(emptyFields(about)).toEqual([])
    expect([about.journey.length, about.passions.length, about.values.length]).toEqual([3, 2, 3])
    const contact = (await fetchQuery(contactPageQuery, { locale })) as { reasons: { highlight: string }[] }
    expect(emptyFields(contact)).toEqual([])
    expect(contact.reasons.map((reason) => reason.highlight).join(' ')).toMatch(/24\s?h.*20\+.*\+250/)
    const notice = (await fetchQuery(legalPageQuery, { locale, slug: 'legal-notice' })) as { sections: unknown[] }
    const privacy = (await fetchQuery(legalPageQuery, { locale, slug: 'privacy-policy' })) as { sections: unknown[] }
    expect(emptyFields(notice)).toEqual([])
    expect(emptyFields(privacy)).toEqual([])
    expect(notice.sections).toHaveLength(3)
    expect(privacy.sections).toHaveLength(4)
  })
})

describe('the package table of spec §2', () => {
  const expected: Record<string, [string, string][]> = {
    'linkedin-services': [
      ['Starter', '4'],
      ['Professional', '8'],
      ['Executive', '12'],
    ],
    'redaction-web': [
      ['Essentiel', '4'],
      ['Professionnel', '8'],
      ['Enterprise', '12'],
    ],
    'campagnes-email': [
      ['Starter', '4'],
      ['Growth', '8'],
      ['Enterprise', '12'],
    ],
    'strategie-contenu': [
      ['Foundation', '3'],
      ['Advanced', '6'],
      ['Enterprise', '12'],
    ],
  }
  it.each(Object.entries(expected))(
    '%s has exactly its packages and volumes in both languages',
    async (slug, packages) => {
      for (const locale of LOCALES) {
        const service = (await fetchQuery(servicePageQuery, { locale, slug })) as Service
        expect(service.page.packages.map((pack) => pack.name)).toEqual(packages.map(([name]) => name))
        service.page.packages.forEach((pack, index) => expect(pack.volume).toContain(packages[index][1]))
      }
    },
  )

  it('states the detail lines of the table', async () => {
    const text = async (slug: string, locale: 'fr' | 'en') =>
      JSON.stringify(await fetchQuery(servicePageQuery, { locale, slug }))
    expect(await text('linkedin-services', 'en')).toMatch(/1 post a week|1 post per week/i)
    expect(await text('redaction-web', 'en')).toMatch(/7 days[\s\S]*5 days[\s\S]*3 days/)
    expect(await text('redaction-web', 'fr')).toMatch(/800[\s\S]*1000[\s\S]*1500/)
    expect(await text('campagnes-email', 'fr')).toContain('42')
    expect(await text('strategie-contenu', 'en')).toMatch(/2 personas[\s\S]*4 personas[\s\S]*unlimited personas/i)
  })

  it('lists the four service slugs as routable', async () => {
    expect(await fetchQuery(servicePageSlugsQuery)).toEqual(expect.arrayContaining(SERVICE_SLUGS))
    expect(((await fetchQuery(servicePageSlugsQuery)) as string[]).length).toBe(4)
  })
})
