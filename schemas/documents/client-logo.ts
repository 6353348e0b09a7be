import { defineField, defineType } from 'sanity'

/** A client of the logo strip: its name (also the image's alternative text) and logo. */
export const clientLogo = defineType({
  name: 'clientLogo',
  title: 'Logo client',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    defineField({ name: 'name', title: 'Nom', type: 'string', validation: (rule) => rule.required() }),
    defineField({ name: 'logo', title: 'Logo', type: 'image', validation: (rule) => rule.required() }),
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'name', media: 'logo' } },
})
