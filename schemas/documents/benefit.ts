import { defineField, defineType } from 'sanity'
import { cardFields, cardPreview } from '../objects/card'

/** One of the six benefits of the home page: a card's fields (optional claim included) and a position. */
export const benefit = defineType({
  name: 'benefit',
  title: 'Avantage',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    ...cardFields,
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: cardPreview,
})
