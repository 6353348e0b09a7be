import { defineArrayMember, defineField, defineType } from 'sanity'
import { heroField } from '../fields/hero'
import { cardFaceFields } from '../objects/card'
import { requiredField } from '../fields/required-field'

/** The four service pages' fixed routes (spec §2). */
export const SERVICE_PAGE_SLUGS = [
  'linkedin-services',
  'redaction-web',
  'campagnes-email',
  'strategie-contenu',
] as const

/** A service card on the home page; four of them also have a page (hero, features, packages). */
export const service = defineType({
  name: 'service',
  title: 'Service',
  type: 'document',
  fields: [
    defineField({ name: 'order', title: 'Ordre', type: 'number', validation: (rule) => rule.required().integer() }),
    ...cardFaceFields,
    defineField({
      name: 'slug',
      title: 'Adresse de la page',
      description: 'Seulement pour les services qui ont une page. Les adresses sont fixes.',
      type: 'slug',
      readOnly: ({ value }) => Boolean(value?.current),
      options: { source: 'title.fr' },
      validation: (rule) =>
        rule.custom((value) =>
          !value?.current || (SERVICE_PAGE_SLUGS as readonly string[]).includes(value.current)
            ? true
            : `Adresses possibles : ${SERVICE_PAGE_SLUGS.join(', ')}`,
        ),
    }),
    defineField({
      name: 'page',
      title: 'Page du service',
      type: 'object',
      hidden: ({ document }) => !(document?.slug as { current?: string } | undefined)?.current,
      // Named in the path above an item's dialog (« Page du service / Points forts »): without it the
      // Studio lists the object's raw contents there.
      preview: { prepare: () => ({ title: 'Page du service' }) },
      fields: [
        requiredField({ name: 'seo', title: 'Référencement', type: 'seo' }),
        heroField({ title: 'Bandeau', ctaLabelTitle: 'Bouton (vers les forfaits)' }),
        defineField({ name: 'highlight', title: 'Chiffre clé (facultatif)', type: 'localeString' }),
        requiredField({
          name: 'featuresTitle',
          title: 'Titre des points forts',
          type: 'localeString',
        }),
        defineField({
          name: 'features',
          title: 'Points forts',
          type: 'array',
          of: [defineArrayMember({ type: 'card' })],
          validation: (rule) => rule.required().length(6),
        }),
        requiredField({
          name: 'packagesTitle',
          title: 'Titre des forfaits',
          type: 'localeString',
        }),
        requiredField({
          name: 'packagesIntro',
          title: 'Introduction des forfaits',
          type: 'localeText',
        }),
        requiredField({
          name: 'chooseLabel',
          title: 'Bouton de choix',
          type: 'localeString',
        }),
        requiredField({
          name: 'popularLabel',
          title: 'Badge populaire',
          type: 'localeString',
        }),
        defineField({
          name: 'packages',
          title: 'Forfaits',
          type: 'array',
          of: [defineArrayMember({ type: 'servicePackage' })],
          validation: (rule) =>
            rule
              .required()
              .length(3)
              .custom((packages) => {
                const flags = (packages as { featured?: boolean }[] | undefined)?.map((item) => Boolean(item.featured))
                return !flags || (flags[0] === false && flags[1] === true && flags[2] === false)
                  ? true
                  : 'Seul le forfait du milieu est mis en avant.'
              }),
        }),
        requiredField({
          name: 'closingCta',
          title: 'Appel à l’action final',
          type: 'callToAction',
        }),
      ],
    }),
  ],
  orderings: [{ title: 'Ordre', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'title.fr', subtitle: 'slug.current' } },
})
