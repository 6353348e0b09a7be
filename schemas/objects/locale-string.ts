import { defineField, defineType } from 'sanity'

/** A short text in French and English; both are required. */
export const localeString = defineType({
  name: 'localeString',
  title: 'Texte court (fr/en)',
  type: 'object',
  fields: [
    defineField({ name: 'fr', title: 'Français', type: 'string', validation: (rule) => rule.required() }),
    defineField({ name: 'en', title: 'English', type: 'string', validation: (rule) => rule.required() }),
  ],
  options: { columns: 2 },
})
