import {
  defineDocuments,
  defineLocations,
  type DocumentLocation,
  type DocumentLocationResolvers,
} from 'sanity/presentation'

/*
 * How the Presentation tool links documents and pages, in both languages: French at /…, English at
 * /en/…. `locations` lists the pages a document appears on (shown above the document's form);
 * `mainDocuments` names the document a page is about (opened when the editor browses to the page).
 */

/** Both language versions of one page. */
function bothLanguages(path: string, frTitle: string, enTitle: string): DocumentLocation[] {
  return [
    { title: `${frTitle} (FR)`, href: path },
    { title: `${enTitle} (EN)`, href: path === '/' ? '/en' : `/en${path}` },
  ]
}

const home = bothLanguages('/', 'Accueil', 'Home')
const about = bothLanguages('/about', 'À propos', 'About')
const contact = bothLanguages('/contact', 'Contact', 'Contact')

/** Shown on the home page (its services, benefits, logos and testimonials sections). */
const homeSection = defineLocations({ locations: home, message: 'Affiché sur la page d’accueil' })

type TitledPage = { title?: string; titleEn?: string; slug?: string }
const titledPage = { title: 'title.fr', titleEn: 'title.en', slug: 'slug.current' }

export const locations: DocumentLocationResolvers = {
  siteSettings: defineLocations({
    locations: [...home, ...about, ...contact],
    message: 'Utilisé sur toutes les pages (en-tête, pied de page, référencement)',
  }),
  homePage: defineLocations({ locations: home }),
  aboutPage: defineLocations({ locations: about }),
  contactPage: defineLocations({ locations: contact }),
  service: defineLocations({
    select: titledPage,
    resolve: (doc: TitledPage | null) =>
      doc?.slug
        ? { locations: [...bothLanguages(`/${doc.slug}`, doc.title ?? doc.slug, doc.titleEn ?? doc.slug), ...home] }
        : { message: 'Ce service n’a pas encore d’adresse (slug)' },
  }),
  legalPage: defineLocations({
    select: titledPage,
    resolve: (doc: TitledPage | null) =>
      doc?.slug ? { locations: bothLanguages(`/${doc.slug}`, doc.title ?? doc.slug, doc.titleEn ?? doc.slug) } : null,
  }),
  benefit: homeSection,
  clientLogo: homeSection,
  testimonial: homeSection,
}

/** Legal pages and services are both one path segment under the language, told apart by their slug. */
export const mainDocuments = defineDocuments([
  { route: ['/', '/en'], filter: `_type == "homePage"` },
  { route: ['/about', '/en/about'], filter: `_type == "aboutPage"` },
  { route: ['/contact', '/en/contact'], filter: `_type == "contactPage"` },
  {
    route: ['/:slug', '/en/:slug'],
    filter: `_type in ["legalPage", "service"] && slug.current == $slug`,
    params: ({ params }) => ({ slug: params.slug ?? '' }),
  },
])
