import { defineField, defineType } from 'sanity'

/** One numbered section of a legal page. */
export const legalSection = defineType({
  name: 'legalSection',
  title: 'Section',
  type: 'object',
  fields: [
    defineField({ name: 'heading', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'body', title: 'Texte', type: 'localeBlockContent', validation: (rule) => rule.required() }),
  ],
  preview: { select: { title: 'heading.fr' } },
})
