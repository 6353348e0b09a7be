import { defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** One numbered section of a legal page. */
export const legalSection = defineType({
  name: 'legalSection',
  title: 'Section',
  type: 'object',
  fields: [
    requiredField({ name: 'heading', title: 'Titre', type: 'localeString' }),
    requiredField({ name: 'body', title: 'Texte', type: 'localeBlockContent' }),
  ],
  preview: { select: { title: 'heading.fr' } },
})
