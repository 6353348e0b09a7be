import { defineField, defineType } from 'sanity'

/** A paragraph in French and English; both are required. */
export const localeText = defineType({
  name: 'localeText',
  title: 'Texte (fr/en)',
  type: 'object',
  fields: [
    defineField({ name: 'fr', title: 'Français', type: 'text', rows: 3, validation: (rule) => rule.required() }),
    defineField({ name: 'en', title: 'English', type: 'text', rows: 3, validation: (rule) => rule.required() }),
  ],
})
