import { defineField, defineType } from 'sanity'

/** A client testimonial with its star rating. */
export const testimonial = defineType({
  name: 'testimonial',
  title: 'Témoignage',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    defineField({ name: 'name', title: 'Nom', type: 'string', validation: (rule) => rule.required() }),
    defineField({ name: 'role', title: 'Fonction', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'content', title: 'Témoignage', type: 'localeText', validation: (rule) => rule.required() }),
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
