import { defineLocaleResourceBundle } from 'sanity'

/*
 * The one Canvas text (« Lier à Canvas » in a document's menu) that @sanity/locale-fr-fr does not
 * translate yet for Sanity 6.16 (tests/unit/studio-french.test.ts).
 */
export const canvasFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'canvas',
  resources: {
    'dialog.confirm-document-changes.description':
      'Ce document doit être mis à jour pour être compatible avec Canvas.\n Le contenu existant peut être modifié ou supprimé au cours de cette opération.',
  },
})
