import { defineField, defineType } from 'sanity'

/** A closing band: title, sentence and button label. */
export const callToAction = defineType({
  name: 'callToAction',
  title: 'Appel à l’action',
  type: 'object',
  fields: [
    defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'text', title: 'Texte', type: 'localeText', validation: (rule) => rule.required() }),
    defineField({ name: 'buttonLabel', title: 'Bouton', type: 'localeString', validation: (rule) => rule.required() }),
  ],
})
