import { defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** A client testimonial with its star rating. */
export const testimonial = defineType({
  name: 'testimonial',
  title: 'Témoignage',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    requiredField({ name: 'name', title: 'Nom', type: 'string' }),
    requiredField({ name: 'role', title: 'Fonction', type: 'localeString' }),
    requiredField({ name: 'content', title: 'Témoignage', type: 'localeText' }),
    defineField({
      name: 'rating',
      title: 'Note (1 à 5)',
      type: 'number',
      validation: (rule) => rule.required().integer().min(1).max(5),
    }),
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'name', subtitle: 'role.fr' } },
})
