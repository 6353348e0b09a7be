import { defineArrayMember, defineField, defineType } from 'sanity'
import { heroField } from '../fields/hero'
import { requiredField } from '../fields/required-field'

const sectionHeading = (name: string, title: string) =>
  defineField({
    name,
    title,
    type: 'object',
    fields: [
      requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
      requiredField({ name: 'intro', title: 'Introduction', type: 'localeText' }),
    ],
  })

/** Singleton: the home page's own texts (services, benefits, logos and testimonials are documents). */
export const homePage = defineType({
  name: 'homePage',
  title: 'Accueil',
  type: 'document',
  fields: [
    requiredField({ name: 'seo', title: 'Référencement', type: 'seo' }),
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
        requiredField({
          name: 'projectsClaim',
          title: 'Projets livrés',
          type: 'localeString',
        }),
      ],
    }),
    defineField({
      name: 'servicesSection',
      title: 'Section services',
      type: 'object',
      fields: [
        requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
        requiredField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
        }),
        requiredField({
          name: 'linkLabel',
          title: 'Lien vers la page',
          type: 'localeString',
        }),
      ],
    }),
    sectionHeading('benefitsSection', 'Section avantages'),
    defineField({
      name: 'clientsSection',
      title: 'Section clients',
      type: 'object',
      fields: [requiredField({ name: 'title', title: 'Titre', type: 'localeString' })],
    }),
    sectionHeading('testimonialsSection', 'Section témoignages'),
    requiredField({
      name: 'contactCta',
      title: 'Appel à l’action contact',
      type: 'callToAction',
    }),
  ],
  preview: { prepare: () => ({ title: 'Accueil' }) },
})
