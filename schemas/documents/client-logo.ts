import { defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** A client of the logo strip: its name (also the image's alternative text) and logo. */
export const clientLogo = defineType({
  name: 'clientLogo',
  title: 'Logo client',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    requiredField({ name: 'name', title: 'Nom', type: 'string' }),
    requiredField({ name: 'logo', title: 'Logo', type: 'image' }),
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'name', media: 'logo' } },
})
