import { defineLocaleResourceBundle } from 'sanity'

/*
 * The comments' two badges Sanity 6.16 has and @sanity/locale-fr-fr does not translate yet (comments
 * come with a hosted plan that has them: tests/unit/studio-french.test.ts checks every namespace).
 */
export const commentsFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'comments',
  resources: {
    // Left in English by the package (the button's tooltip in every document's header).
    'feature-name': 'Commentaires',
    'list-item.origin.draft': 'Sur le brouillon',
    'list-item.origin.published': 'Sur la version publiée',
  },
})
