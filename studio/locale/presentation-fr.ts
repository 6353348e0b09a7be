import { defineLocaleResourceBundle } from 'sanity'

/*
 * The Presentation tool's words in French. @sanity/locale-fr-fr (frFRLocale, sanity.config.ts)
 * translates the Studio, the structure and validation, but has no bundle for this tool: what an editor
 * sees while previewing (the banner above a document, the frame's buttons and states) is here.
 * Every key Sanity defines is here (tests/unit/studio-french.test.ts).
 */
export const presentationFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'presentation',
  resources: {
    'document-list-pane.document-list.title': 'Documents de cette page',
    'document-list-pane.error.text': 'Impossible d’afficher la liste des documents',
    'document-list-pane.ordering.by-appearance': 'Par ordre d’apparition',
    'document-list-pane.ordering.last-edited': 'Dernière modification',
    'channel.status_connected': 'Connecté',
    'channel.status_connecting': 'Connexion',
    'channel.status_disconnected': 'Déconnecté',
    'channel.status_reconnecting': 'Reconnexion',
    'document-pane.error.text': 'Impossible d’afficher l’éditeur du document',
    'error-card.continue-button.text': 'Continuer quand même',
    'error-card.retry-button.text': 'Réessayer',
    'error-card.title': 'Une erreur s’est produite',
    'locations-banner.locations-count_one': 'Utilisé sur une page',
    'locations-banner.locations-count_other': 'Utilisé sur {{count}} pages',
    'locations-banner.locations-count_zero': 'Utilisé sur aucune page',
    'locations-banner.resolving.text': 'Recherche des pages…',
    'main-document.label': 'Document principal',
    'narrow-tabs.content-tab.label': 'Structure',
    'narrow-tabs.navigator-tab.label': 'Navigation',
    'narrow-tabs.preview-tab.label': 'Aperçu',
    'presentation-error.label': 'Message d’erreur',
    'preview-frame.connection.error.text': 'Impossible de se connecter à l’aperçu',
    'preview-frame.continue-button.text': 'Continuer quand même',
    'preview-frame.navigator.toggle-button.aria-label': 'Afficher ou masquer la navigation',
    'preview-frame.navigator.toggle-button.tooltip': 'Afficher ou masquer la navigation',
    'preview-frame.overlay.toggle-button.text': 'Modifier',
    'preview-frame.overlay.toggle-button.tooltip_disable': 'Désactiver l’édition dans l’aperçu',
    'preview-frame.overlay.toggle-button.tooltip_enable': 'Activer l’édition dans l’aperçu',
    'preview-frame.perspective.published.text': 'Voir cette page avec le contenu publié',
    'preview-frame.refresh-button.aria-label': 'Actualiser l’aperçu',
    'preview-frame.refresh-button.tooltip': 'Actualiser l’aperçu',
    'preview-frame.status_connecting': 'Connexion.',
    'preview-frame.status_loading': 'Chargement.',
    'preview-frame.status_refreshing': 'Actualisation.',
    'preview-frame.status_reloading': 'Actualisation.',
    'preview-frame.status_timeout': 'Connexion impossible : la console du navigateur en dit plus.',
    'preview-frame.viewport-button.aria-label': 'Changer la largeur de l’aperçu',
    'preview-frame.viewport-button.tooltip_full': 'Pleine largeur',
    'preview-frame.viewport-button.tooltip_narrow': 'Largeur d’un téléphone',
    'share-url.clipboard.status_copying': 'Copie de l’adresse…',
    'share-url.clipboard.status_failed': 'La copie a échoué',
    'share-url.clipboard.status_success': 'Adresse copiée',
    'share-url.clipboard.status_unsupported': 'Presse-papiers non disponible',
    'share-url.menu-item.open.text': 'Ouvrir l’aperçu',
    'preview-frame.share-button.aria-label': 'Partager cet aperçu',
    'main-document.missing.text': 'Aucun document principal pour <Code>{{path}}</Code>',
    'preview-frame.configuration.error.title': 'L’origine de l’aperçu ne correspond pas',
    'preview-frame.configuration.error.description':
      'L’aperçu doit charger <Code>{{targetOrigin}}</Code>, mais l’origine annoncée est <Code>{{reportedOrigin}}</Code>. Par sécurité, l’outil Aperçu ne se connecte pas à une origine inconnue : ajoutez-la à <Code>presentationTool.allowOrigins</Code> pour l’édition visuelle et les chargeurs.',
    'preview-search-param.configuration.error.title': 'Adresse d’aperçu bloquée',
    'preview-search-param.configuration.error.description':
      'Le routeur veut ouvrir <Code>{{previewSearchParam}}</Code>, mais l’origine <Code>{{blockedOrigin}}</Code> n’est pas autorisée : ajoutez-la à <Code>presentationTool.allowOrigins</Code>.',
    'preview-frame.loader.connection-status.label': 'État de la connexion du chargeur',
    'preview-frame.overlay.connection-status.label': 'État de la connexion de l’édition dans l’aperçu',
    'preview-location-input.error_missing-origin': 'L’adresse doit commencer par {{origin}}',
    'preview-location-input.error_same-base-path':
      'L’adresse ne peut pas commencer comme celle du Studio, {{basePath}}',
    'preview-url-secret.missing-grants':
      'Vous n’avez pas le droit de créer les secrets des aperçus : l’aperçu risque de ne pas se charger.',
    'share-preview-menu.qr-code.title': 'Un QR code de l’adresse : {{url}}',
    'share-preview-menu.error_toggle-sharing':
      'Vous n’avez pas le droit d’activer ou de couper le partage de cet aperçu',
    'share-preview-menu.toggle-button.tooltip_disable': 'Ne plus partager',
    'share-preview-menu.toggle-button.tooltip_enable': 'Partager',
    'share-preview-menu.toggle-button.label_first-line': 'Partager cet aperçu',
    'share-preview-menu.toggle-button.label_second-line': 'avec toute personne qui a le lien',
    'share-preview-menu.qr-code.placeholder': 'Le QR code apparaîtra ici',
    'share-preview-menu.qr-code.instructions': 'Scannez le QR code pour ouvrir l’aperçu sur votre téléphone.',
    'share-preview-menu.copy-url.text': 'Copier le lien de l’aperçu',
    'share-preview-menu.error_missing-grants': 'Vous n’avez pas le droit de partager les aperçus.',
  },
})
