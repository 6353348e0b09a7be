import { defineArrayMember, defineField, defineType } from 'sanity'

/** Singleton: brand, contact details, booking and social links, default SEO, site-wide claims. */
export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Réglages du site',
  type: 'document',
  fields: [
    defineField({
      name: 'brandName',
      title: 'Nom de la marque',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'tagline',
      title: 'Accroche (pied de page)',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'email', title: 'Email', type: 'string', validation: (rule) => rule.required().email() }),
    defineField({ name: 'phone', title: 'Téléphone', type: 'string', validation: (rule) => rule.required() }),
    defineField({ name: 'city', title: 'Ville', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'bookingUrl',
      title: 'Lien de prise de rendez-vous',
      type: 'url',
      validation: (rule) => rule.required().uri({ scheme: ['https'] }),
    }),
    defineField({
      name: 'bookingLabel',
      title: 'Libellé du lien de rendez-vous',
      type: 'localeString',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'socialLinks',
      title: 'Réseaux sociaux',
      type: 'object',
      fields: [
        defineField({ name: 'linkedin', title: 'LinkedIn', type: 'url', validation: (rule) => rule.required() }),
        defineField({ name: 'instagram', title: 'Instagram', type: 'url', validation: (rule) => rule.required() }),
      ],
    }),
    defineField({
      name: 'copyrightYear',
      title: 'Année du copyright',
      type: 'number',
      validation: (rule) => rule.required().integer().min(2000),
    }),
    defineField({ name: 'seo', title: 'Référencement par défaut', type: 'seo', validation: (rule) => rule.required() }),
    defineField({
      name: 'claims',
      title: 'Chiffres clés (pied de page)',
      type: 'array',
      of: [defineArrayMember({ type: 'localeString' })],
    }),
  ],
  preview: { prepare: () => ({ title: 'Réglages du site' }) },
})
