import type { StructureResolver } from 'sanity/structure'
import { PendingTranslationsCount, TranslationsOverview } from './translation/translations-overview'

/** Singletons: one document each, opened directly; never created or deleted from the Studio. */
export const singletonTypes = new Set(['siteSettings', 'homePage', 'aboutPage', 'contactPage'])

const SINGLETONS: [type: string, title: string][] = [
  ['siteSettings', 'Réglages du site'],
  ['homePage', 'Accueil'],
  ['aboutPage', 'À propos'],
  ['contactPage', 'Contact'],
]

const COLLECTIONS: [type: string, title: string, ordered: boolean][] = [
  ['service', 'Services', true],
  ['benefit', 'Avantages', true],
  ['clientLogo', 'Logos clients', true],
  ['testimonial', 'Témoignages', true],
  ['legalPage', 'Pages légales', false],
]

export const structure: StructureResolver = (S) =>
  S.list()
    .title('Contenu')
    .items([
      ...SINGLETONS.map(([type, title]) =>
        S.listItem().title(title).id(type).child(S.document().schemaType(type).documentId(type).title(title)),
      ),
      S.divider(),
      ...COLLECTIONS.map(([type, title, ordered]) =>
        S.listItem()
          .title(title)
          .schemaType(type)
          .child(
            ordered
              ? S.documentTypeList(type)
                  .title(title)
                  .defaultOrdering([{ field: 'order', direction: 'asc' }])
              : S.documentTypeList(type).title(title),
          ),
      ),
      S.divider(),
      // Every English field that no longer follows its French, or has none: studio/translation.
      // Its count as the item's media, kept current (studio/translation/use-pending-translations.ts).
      S.listItem()
        .title('Traductions à revoir')
        .id('translations')
        .icon(PendingTranslationsCount)
        .child(S.component(TranslationsOverview).id('translations').title('Traductions à revoir')),
    ])
