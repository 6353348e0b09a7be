import { defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** Title and description for search engines and link previews. */
export const seo = defineType({
  name: 'seo',
  title: 'Référencement',
  type: 'object',
  fields: [
    requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
    requiredField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
    }),
  ],
})
