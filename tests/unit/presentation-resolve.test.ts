import { describe, expect, it } from 'vitest'
import { locations, mainDocuments } from '@/studio/presentation'

/*
 * Which pages the Presentation tool says a document appears on, in both languages, and which
 * document it opens for a page (studio/presentation.ts).
 */

type Resolver = {
  select: Record<string, string>
  resolve: (
    doc: Record<string, string> | null,
  ) => { locations?: { title: string; href: string }[]; message?: string } | null
}
const hrefs = (state: { locations?: { href: string }[] } | null | undefined) =>
  state?.locations?.map((location) => location.href)

describe('document locations', () => {
  it('a service: its own page and the home page, in French and English', () => {
    const service = locations.service as Resolver
    expect(service.select).toEqual({ title: 'title.fr', titleEn: 'title.en', slug: 'slug.current' })
    const state = service.resolve({ title: 'Contenu LinkedIn', titleEn: 'LinkedIn content', slug: 'linkedin-services' })
    expect(hrefs(state)).toEqual(['/linkedin-services', '/en/linkedin-services', '/', '/en'])
    expect(state?.locations?.[1].title).toBe('LinkedIn content (EN)')
    expect(service.resolve({ title: 'Nouveau' })?.message).toMatch(/slug/)
  })

  it('a legal page at its slug; singletons and home sections at fixed pages; site settings everywhere', () => {
    expect(
      hrefs(
        (locations.legalPage as Resolver).resolve({
          title: 'Mentions légales',
          titleEn: 'Legal notice',
          slug: 'legal-notice',
        }),
      ),
    ).toEqual(['/legal-notice', '/en/legal-notice'])
    expect(hrefs(locations.homePage as { locations: { href: string }[] })).toEqual(['/', '/en'])
    expect(hrefs(locations.aboutPage as { locations: { href: string }[] })).toEqual(['/about', '/en/about'])
    for (const type of ['benefit', 'clientLogo', 'testimonial'])
      expect(hrefs(locations[type] as { locations: { href: string }[] })).toEqual(['/', '/en'])
    const settings = locations.siteSettings as { locations: { href: string }[]; message: string }
    expect(hrefs(settings)).toEqual(['/', '/en', '/about', '/en/about', '/contact', '/en/contact'])
    expect(settings.message).toMatch(/toutes les pages/)
  })
})

describe('main documents', () => {
  it('opens the page’s document for each route, in both languages', () => {
    const byRoute = (route: string) =>
      mainDocuments.find((entry) => ([] as string[]).concat(entry.route).includes(route))
    expect(byRoute('/en')?.filter).toBe('_type == "homePage"')
    expect(byRoute('/about')?.filter).toBe('_type == "aboutPage"')
    expect(byRoute('/en/contact')?.filter).toBe('_type == "contactPage"')
    const page = byRoute('/en/:slug')
    expect(page?.filter).toContain('slug.current == $slug')
    const params = page?.params as (context: {
      params: Record<string, string>
      origin: string
      path: string
    }) => Record<string, string>
    expect(params({ params: { slug: 'legal-notice' }, origin: '', path: '/en/legal-notice' })).toEqual({
      slug: 'legal-notice',
    })
  })
})
