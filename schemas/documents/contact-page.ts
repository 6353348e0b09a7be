import { defineArrayMember, defineField, defineType } from 'sanity'

/** Singleton: the contact page's texts (the details come from the site settings). */
export const contactPage = defineType({
  name: 'contactPage',
  title: 'Contact',
  type: 'document',
  fields: [
    defineField({ name: 'seo', title: 'Référencement', type: 'seo', validation: (rule) => rule.required() }),
    defineField({
      name: 'hero',
      title: 'Bandeau',
      type: 'object',
      fields: [
        defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
        defineField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
          validation: (rule) => rule.required(),
        }),
      ],
    }),
    defineField({
      name: 'detailsTitle',
      title: 'Titre des coordonnées',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'formTitle',
      title: 'Titre du formulaire',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'formIntro',
      title: 'Introduction du formulaire',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'whyTitle',
      title: 'Titre « Pourquoi nous choisir »',
      type: 'localeString',
      validation: (rule) => rule.required(),
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
