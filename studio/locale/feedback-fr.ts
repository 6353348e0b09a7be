import { defineLocaleResourceBundle } from 'sanity'

/*
 * « Envoyer un avis » in the help menu and its dialog, which sends an editor's feedback to Sanity:
 * @sanity/locale-fr-fr has no bundle for this namespace. Every key Sanity defines in it is here
 * (tests/unit/studio-french.test.ts).
 */
export const feedbackFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'feedback',
  resources: {
    'feedback.attachment.browse': 'Parcourir',
    'feedback.attachment.drop-zone': 'Déposez ou collez un fichier ici',
    'feedback.attachment.error.size': 'L’image doit faire moins de 20 Mo',
    'feedback.attachment.label': 'Joindre une image',
    'feedback.attachment.remove': 'Retirer',
    'feedback.cancel': 'Annuler',
    'feedback.consent.disclaimer':
      'Nous aimerions en savoir plus. Si vous répondez oui, votre nom et votre adresse e-mail seront transmis à l’équipe de Sanity.',
    'feedback.consent.label': 'Pouvons-nous vous recontacter au sujet de cet avis ?',
    'feedback.consent.no': 'Non',
    'feedback.consent.yes': 'Oui',
    'feedback.dialog.title': 'Donner votre avis à Sanity',
    'feedback.error': 'L’avis n’a pas pu être envoyé',
    'feedback.menu-item': 'Envoyer un avis',
    'feedback.message.label': 'Qu’est-ce qui fonctionne ? Qu’est-ce qui pourrait être mieux ?',
    'feedback.message.placeholder': 'Décrivez votre problème ou votre demande…',
    'feedback.sentiment.happy': 'Facile',
    'feedback.sentiment.label': 'Sanity est-il facile ou difficile à utiliser ?',
    'feedback.sentiment.neutral': 'Je ne sais pas',
    'feedback.sentiment.unhappy': 'Difficile',
    'feedback.submit': 'Envoyer l’avis',
    'feedback.success': 'Avis envoyé, merci !',
  },
})
