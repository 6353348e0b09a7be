import { defineField, defineType } from 'sanity'
import { ICON_NAMES } from '../../lib/icons'

/** One of the six benefits of the home page, with an optional claim. */
export const benefit = defineType({
  name: 'benefit',
  title: 'Avantage',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    defineField({
      name: 'icon',
      title: 'Icône',
      type: 'string',
      options: { list: [...ICON_NAMES] },
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'highlight', title: 'Chiffre clé (facultatif)', type: 'localeString' }),
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'title.fr', subtitle: 'highlight.fr' } },
})
