import { defineArrayMember, defineField, defineType } from 'sanity'
import { heroField } from '../fields/hero'

const sectionHeading = (name: string, title: string) =>
  defineField({
    name,
    title,
    type: 'object',
    fields: [
      defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
      defineField({ name: 'intro', title: 'Introduction', type: 'localeText', validation: (rule) => rule.required() }),
    ],
  })

/** Singleton: the home page's own texts (services, benefits, logos and testimonials are documents). */
export const homePage = defineType({
  name: 'homePage',
  title: 'Accueil',
  type: 'document',
  fields: [
    defineField({ name: 'seo', title: 'Référencement', type: 'seo', validation: (rule) => rule.required() }),
    heroField({
      title: 'Bandeau principal',
      ctaLabelTitle: 'Bouton',
      fields: [
        defineField({
          name: 'trustLines',
          title: 'Arguments de confiance',
          type: 'array',
          of: [defineArrayMember({ type: 'localeString' })],
          validation: (rule) => rule.required().length(3),
        }),
        defineField({
          name: 'projectsClaim',
          title: 'Projets livrés',
          type: 'localeString',
          validation: (rule) => rule.required(),
        }),
      ],
    }),
    defineField({
      name: 'servicesSection',
      title: 'Section services',
      type: 'object',
      fields: [
        defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
        defineField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'linkLabel',
          title: 'Lien vers la page',
          type: 'localeString',
          validation: (rule) => rule.required(),
        }),
      ],
    }),
    sectionHeading('benefitsSection', 'Section avantages'),
    defineField({
      name: 'clientsSection',
      title: 'Section clients',
      type: 'object',
      fields: [
        defineField({ name: 'title', title: 'Titre', type: 'localeString', validation: (rule) => rule.required() }),
      ],
    }),
    sectionHeading('testimonialsSection', 'Section témoignages'),
    defineField({
      name: 'contactCta',
      title: 'Appel à l’action contact',
      type: 'callToAction',
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { prepare: () => ({ title: 'Accueil' }) },
})
