import { defineField, defineType } from 'sanity'

/** Title and description for search engines and link previews. */
export const seo = defineType({
  name: 'seo',
  title: 'Référencement',
  type: 'object',
  fields: [
    defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
  ],
})
