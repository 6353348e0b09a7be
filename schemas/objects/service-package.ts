import { defineArrayMember, defineField, defineType } from 'sanity'

/** A package card of a service page. No prices: the agency quotes each project. */
export const servicePackage = defineType({
  name: 'servicePackage',
  title: 'Forfait',
  type: 'object',
  fields: [
    defineField({ name: 'name', title: 'Nom', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'volume', title: 'Volume', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'features',
      title: 'Contenu',
      type: 'array',
      of: [defineArrayMember({ type: 'localeString' })],
      validation: (rule) => rule.required().min(2),
    }),
    defineField({ name: 'featured', title: 'Mis en avant (populaire)', type: 'boolean', initialValue: false }),
  ],
  preview: { select: { title: 'name.fr', subtitle: 'volume.fr' } },
})
