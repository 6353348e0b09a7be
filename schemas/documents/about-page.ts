import { defineArrayMember, defineField, defineType } from 'sanity'
import { heroHeadingFields } from '../fields/hero'

const cards = (name: string, title: string, count: number) =>
  defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({ type: 'card' })],
    validation: (rule) => rule.required().length(count),
  })

/** Singleton: the founder's profile. */
export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'À propos',
  type: 'document',
  fields: [
    defineField({ name: 'seo', title: 'Référencement', type: 'seo', validation: (rule) => rule.required() }),
    defineField({
      name: 'hero',
      title: 'Bandeau',
      type: 'object',
      fields: [
        ...heroHeadingFields,
        defineField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
          validation: (rule) => rule.required(),
        }),
      ],
    }),
    defineField({
      name: 'photo',
      title: 'Photo de la fondatrice',
      type: 'image',
      // Crop and hotspot are applied to the photo's URL on the site (lib/sanity/image.ts).
      options: { hotspot: true },
      fields: [
        defineField({
          name: 'alt',
          title: 'Texte alternatif',
          type: 'localeString',
          validation: (rule) => rule.required(),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'story',
      title: 'Histoire',
      type: 'localeBlockContent',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'journeyTitle',
      title: 'Titre du parcours',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    cards('journey', 'Parcours', 3),
    defineField({
      name: 'passionsTitle',
      title: 'Titre des passions',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    cards('passions', 'Passions', 2),
    defineField({
      name: 'valuesTitle',
      title: 'Titre des valeurs',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    cards('values', 'Valeurs', 3),
    defineField({
      name: 'cta',
      title: 'Appel à l’action (vers /contact)',
      type: 'callToAction',
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { prepare: () => ({ title: 'À propos' }) },
})
