import { defineLocaleResourceBundle } from 'sanity'

/*
 * The structure tool's words that @sanity/locale-fr-fr (made for an older Sanity) has not translated
 * yet: above all what an editor reads when a save does not go through (the Content Lake down or slow),
 * the delete confirmation and the document's error panel. Releases (« publications », as the package
 * says) and variants, which the local Content Lake does not offer, are translated too, for a hosted project that has them. Merged with the
 * package's bundle for the same namespace.
 */
export const structureFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'structure',
  resources: {
    // The package writes « Publié il y a {{…}} », and the time it is given already says « il y a ».
    'action.publish.already-published.tooltip': 'Publié {{timeSincePublished}}',
    'action.delete.disabled.target-not-found': 'La publication ou la variante choisie ne contient pas ce document',
    'action.discard-changes.disabled.target-not-found':
      'La publication ou la variante choisie ne contient pas ce document',
    'action.duplicate.disabled.target-not-found': 'La publication ou la variante choisie ne contient pas ce document',
    'action.publish.disabled.not-publishable': 'Cette version est publiée avec sa publication',
    'action.publish.disabled.target-not-found': 'La publication ou la variante choisie ne contient pas ce document',
    'action.unpublish.disabled.already-unpublished': 'Ce document est déjà prévu pour être dépublié',
    'action.unpublish.disabled.target-not-found': 'La publication ou la variante choisie ne contient pas ce document',
    'banners.obsolete-draft.actions.compare-draft.tooltip':
      'Le document publié n’existe pas : ce brouillon ne peut pas lui être comparé.',
    'banners.release.action.add-to-bundle': 'Ajouter à la publication',
    'banners.variant.action.add-to-variant': 'Créer une variante',
    'banners.variant.definition-not-found': 'La variante <VariantName>{{name}}</VariantName> est introuvable.',
    'banners.variant.error.description': 'Le document n’a pas pu être ajouté à la variante : {{message}}',
    'banners.variant.error.title': 'Erreur lors de l’ajout à la variante',
    'banners.variant.not-in-variant':
      'Aucun document <PerspectiveTitle>{{perspectiveTitle}}</PerspectiveTitle> n’existe pour la variante <VariantBadge>{{variantTitle}}</VariantBadge>.',
    'banners.variant.waiting.description':
      'Veuillez patienter pendant l’ajout du document à la variante : cela ne prend que quelques secondes.',
    'banners.variant.waiting.title': 'Ajout du document à la variante…',
    'compare-version.error.invalidModeParam': '« {{input}} » n’est pas un mode de comparaison de documents.',
    'compare-version.error.loadVersions.title': 'Les versions n’ont pas pu être chargées',
    'confirm-delete-dialog.confirm-anyway-button.text_delete_other': 'Supprimer quand même toutes les versions',
    'confirm-delete-dialog.confirm-button.text_delete_other': 'Supprimer toutes les versions',
    'confirm-delete-dialog.confirmation.text_delete_other':
      'Voulez-vous vraiment supprimer toutes les versions de ce document ?',
    'document-group-inventory.onboarding-hint': 'Où sont passés les boutons des versions ?',
    'document-inspector.error.close-button.aria-label': 'Fermer le panneau',
    'document-inspector.error.description': 'Une erreur s’est produite en affichant ce panneau.',
    'document-inspector.error.retry-button.text': 'Réessayer',
    'document-inspector.error.title': 'Une erreur s’est produite',
    'document-target-badges.not-in-target.tooltip': 'Ce document n’existe pas encore dans la perspective choisie.',
    'document-view.form-view.sync-pending.description':
      'Nous réessayons. Vos modifications sont gardées dans votre navigateur en attendant.',
    'document-view.form-view.sync-pending.title': 'Vos modifications ne sont pas enregistrées',
    'document-view.form-view.sync-recovering.description':
      'La modification reprend dès que vos changements sont enregistrés.',
    'document-view.form-view.sync-recovering.title': 'Enregistrement de vos modifications…',
    'document-view.form-view.sync-stalled.description':
      'La modification est suspendue jusqu’à leur enregistrement. Vos modifications sont gardées dans votre navigateur : gardez cet onglet ouvert pendant que nous réessayons.',
    'document-view.form-view.sync-stalled.title': 'Vos modifications ne sont toujours pas enregistrées',
    'incoming-references-pane.no-references': 'Aucune référence vers ce document.',
    'menu-items.layout.restore-default': 'Affichage par défaut',
    'menu-items.layout.restore-default.disabled-reason': 'L’affichage par défaut est déjà utilisé',
    'menu-items.sort-by.restore-default': 'Tri par défaut',
    'menu-items.sort-by.restore-default.disabled-reason': 'Le tri par défaut est déjà utilisé',
    'panes.document-list-pane.error.max-retries-attempted': 'Pas de nouvel essai automatique après {{count}} échecs.',
    'panes.document-list-pane.search-ordering.aria-label': 'Changer l’ordre des résultats',
    'panes.document-list-pane.search-ordering.label': 'Trié par {{order}}',
    'panes.document-list-pane.search-ordering.relevance': 'Pertinence',
    'panes.document-list-pane.search-ordering.summary-relevance': 'Trié par pertinence',
    'panes.document-list-pane.sort-order.disabled-reason': 'Ce tri utilise des champs que ce type de document n’a pas',
    'panes.document-operation-results.operation-success_publishVersion': 'La version a été publiée',
    'panes.document-operation-results.operation-success_unpublishVersion':
      'La version sera dépubliée lorsque sa publication sera publiée',
    'panes.document-pane.variant-target.loading': 'Chargement du document…',
    'timeline-item.not-found-release.tooltip': 'Publication « {{releaseId}} » introuvable',
  },
})
