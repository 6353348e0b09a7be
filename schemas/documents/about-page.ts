import { defineArrayMember, defineField, defineType } from 'sanity'
import { heroHeadingFields } from '../fields/hero'
import { requiredField } from '../fields/required-field'

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
    requiredField({ name: 'seo', title: 'Référencement', type: 'seo' }),
    defineField({
      name: 'hero',
      title: 'Bandeau',
      type: 'object',
      fields: [
        ...heroHeadingFields,
        requiredField({
          name: 'intro',
          title: 'Introduction',
          type: 'localeText',
        }),
      ],
    }),
    requiredField({
      name: 'photo',
      title: 'Photo de la fondatrice',
      type: 'image',
      // Crop and hotspot are applied to the photo's URL on the site (lib/sanity/image.ts).
      options: { hotspot: true },
      fields: [
        requiredField({
          name: 'alt',
          title: 'Texte alternatif',
          type: 'localeString',
        }),
      ],
    }),
    requiredField({
      name: 'story',
      title: 'Histoire',
      type: 'localeBlockContent',
    }),
    requiredField({
      name: 'journeyTitle',
      title: 'Titre du parcours',
      type: 'localeString',
    }),
    cards('journey', 'Parcours', 3),
    requiredField({
      name: 'passionsTitle',
      title: 'Titre des passions',
      type: 'localeString',
    }),
    cards('passions', 'Passions', 2),
    requiredField({
      name: 'valuesTitle',
      title: 'Titre des valeurs',
      type: 'localeString',
    }),
    cards('values', 'Valeurs', 3),
    requiredField({
      name: 'cta',
      title: 'Appel à l’action (vers /contact)',
      type: 'callToAction',
    }),
  ],
  preview: { prepare: () => ({ title: 'À propos' }) },
})
