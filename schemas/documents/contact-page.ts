import { defineArrayMember, defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** Singleton: the contact page's texts (the details come from the site settings). */
export const contactPage = defineType({
  name: 'contactPage',
  title: 'Contact',
  type: 'document',
  fields: [
    requiredField({ name: 'seo', title: 'Référencement', type: 'seo' }),
    defineField({
      name: 'hero',
      title: 'Bandeau',
      type: 'object',
      fields: [
        requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
        requiredField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
        }),
      ],
    }),
    requiredField({
      name: 'detailsTitle',
      title: 'Titre des coordonnées',
      type: 'localeString',
    }),
    requiredField({
      name: 'formTitle',
      title: 'Titre du formulaire',
      type: 'localeString',
    }),
    requiredField({
      name: 'formIntro',
      title: 'Introduction du formulaire',
      type: 'localeText',
    }),
    requiredField({
      name: 'whyTitle',
      title: 'Titre « Pourquoi nous choisir »',
      type: 'localeString',
    }),
    defineField({
      name: 'reasons',
      title: 'Raisons',
      type: 'array',
      of: [defineArrayMember({ type: 'card' })],
      validation: (rule) => rule.required().length(3),
    }),
  ],
  preview: { prepare: () => ({ title: 'Contact' }) },
})
