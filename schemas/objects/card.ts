import { defineField, defineType } from 'sanity'
import { ICON_NAMES } from '../../lib/icons'

/** An icon, a title, a description and an optional short claim: features, journey steps, values. */
export const card = defineType({
  name: 'card',
  title: 'Carte',
  type: 'object',
  fields: [
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
  preview: { select: { title: 'title.fr', subtitle: 'highlight.fr' } },
})
