import { defineField, defineType } from 'sanity'
import { ICON_NAMES, ICON_TITLES } from '../../lib/icons'
import { requiredField } from '../fields/required-field'

/*
 * The card's fields and preview, spread into the documents that are cards too: a service (its card on
 * the home page: icon, title, description) and a benefit (all four). One definition keeps their names,
 * labels and rules alike. Spread, not `type: 'card'`, which would nest the fields under a field of
 * their own and change those documents' stored shape.
 */
export const cardFaceFields = [
  requiredField({
    name: 'icon',
    title: 'Icône',
    type: 'string',
    options: { list: ICON_NAMES.map((value) => ({ value, title: ICON_TITLES[value] })) },
  }),
  requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
  requiredField({
    name: 'description',
    title: 'Description',
    type: 'localeText',
  }),
]
export const cardFields = [
  ...cardFaceFields,
  defineField({ name: 'highlight', title: 'Chiffre clé (facultatif)', type: 'localeString' }),
]
export const cardPreview = { select: { title: 'title.fr', subtitle: 'highlight.fr' } }

/** An icon, a title, a description and an optional short claim: features, journey steps, values. */
export const card = defineType({
  name: 'card',
  title: 'Carte',
  type: 'object',
  fields: cardFields,
  preview: cardPreview,
})
