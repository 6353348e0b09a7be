import { defineArrayMember, defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

export const LEGAL_PAGE_SLUGS = ['legal-notice', 'privacy-policy'] as const

/** Legal notice (3 sections) and privacy policy (4 sections). */
export const legalPage = defineType({
  name: 'legalPage',
  title: 'Page légale',
  type: 'document',
  fields: [
    defineField({
      name: 'slug',
      title: 'Adresse',
      type: 'slug',
      readOnly: ({ value }) => Boolean(value?.current),
      validation: (rule) =>
        rule
          .required()
          .custom((value) =>
            value?.current && (LEGAL_PAGE_SLUGS as readonly string[]).includes(value.current)
              ? true
              : `Adresses possibles : ${LEGAL_PAGE_SLUGS.join(', ')}`,
          ),
    }),
    requiredField({ name: 'seo', title: 'Référencement', type: 'seo' }),
    requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
    requiredField({ name: 'updatedAt', title: 'Mise à jour', type: 'date' }),
    defineField({
      name: 'sections',
      title: 'Sections',
      type: 'array',
      of: [defineArrayMember({ type: 'legalSection' })],
      validation: (rule) =>
        rule.required().custom((sections, context) => {
          const slug = (context.document?.slug as { current?: string } | undefined)?.current
          const expected = slug === 'privacy-policy' ? 4 : 3
          return sections?.length === expected ? true : `Cette page a ${expected} sections.`
        }),
    }),
  ],
  preview: { select: { title: 'title.fr', subtitle: 'slug.current' } },
})
