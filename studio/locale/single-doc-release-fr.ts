import { defineLocaleResourceBundle } from 'sanity'

/*
 * Scheduled drafts (« Brouillons programmés » in the Publications tool, « Programmer la publication »
 * among a document's actions): @sanity/locale-fr-fr has no bundle for this namespace. To schedule is
 * « programmer », as in releases-fr.ts and the package's scheduling dialog. Every key Sanity defines in
 * it is here (tests/unit/studio-french.test.ts).
 */
export const singleDocReleaseFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'singleDocRelease',
  resources: {
    'action.schedule-publish': 'Programmer la publication',
    'action.schedule-publish-success': 'Publication du document programmée',
    'action.schedule-publish-success-description': 'Publication programmée le {{publishAt}}',
    'action.schedule-publish-error': 'Échec de la programmation de la publication',
    'action.schedule-publish.disabled.validation-issues':
      'Impossible de programmer le brouillon : il comporte des erreurs de validation.',
    'action.schedule-publish.disabled.cardinality-one': 'Un brouillon programmé existe déjà pour ce document.',
    'action.schedule-publish.disabled.variant': 'La programmation n’est pas encore disponible pour les variantes.',
    'empty-state.title': 'Brouillons programmés',
    'empty-state.description':
      'Programmez des brouillons et verrouillez-les pour qu’ils soient publiés à une date et une heure à venir.',
    'empty-state.action.documentation': 'En savoir plus sur la programmation',
  },
})
