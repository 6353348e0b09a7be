import { defineArrayMember, defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** A package card of a service page. No prices: the agency quotes each project. */
export const servicePackage = defineType({
  name: 'servicePackage',
  title: 'Forfait',
  type: 'object',
  fields: [
    requiredField({ name: 'name', title: 'Nom', type: 'localeString' }),
    requiredField({ name: 'volume', title: 'Volume', type: 'localeString' }),
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
