import { defineLocaleResourceBundle } from 'sanity'

/*
 * The Presentation tool's words in French. @sanity/locale-fr-fr (frFRLocale, sanity.config.ts)
 * translates the Studio, the structure and validation, but has no bundle for this tool: what an editor
 * sees while previewing (the banner above a document, the frame's buttons and states) is here.
 * A key left out falls back to Sanity's English.
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
  },
})
