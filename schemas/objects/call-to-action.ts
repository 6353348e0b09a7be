import { defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** A closing band: title, sentence and button label. */
export const callToAction = defineType({
  name: 'callToAction',
  title: 'Appel à l’action',
  type: 'object',
  fields: [
    requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
    requiredField({ name: 'text', title: 'Texte', type: 'localeText' }),
    requiredField({ name: 'buttonLabel', title: 'Bouton', type: 'localeString' }),
  ],
})
