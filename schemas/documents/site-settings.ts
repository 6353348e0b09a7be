import { defineArrayMember, defineField, defineType } from 'sanity'
import { requiredField } from '../fields/required-field'

/** Singleton: brand, contact details, booking and social links, default SEO, site-wide claims. */
export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Réglages du site',
  type: 'document',
  fields: [
    requiredField({
      name: 'brandName',
      title: 'Nom de la marque',
      type: 'string',
    }),
    requiredField({
      name: 'tagline',
      title: 'Accroche (pied de page)',
      type: 'localeText',
    }),
    defineField({ name: 'email', title: 'Email', type: 'string', validation: (rule) => rule.required().email() }),
    requiredField({ name: 'phone', title: 'Téléphone', type: 'string' }),
    requiredField({ name: 'city', title: 'Ville', type: 'localeString' }),
    defineField({
      name: 'bookingUrl',
      title: 'Lien de prise de rendez-vous',
      type: 'url',
      validation: (rule) => rule.required().uri({ scheme: ['https'] }),
    }),
    requiredField({
      name: 'bookingLabel',
      title: 'Libellé du lien de rendez-vous',
      type: 'localeString',
    }),
    defineField({
      name: 'socialLinks',
      title: 'Réseaux sociaux',
      type: 'object',
      fields: [
        requiredField({ name: 'linkedin', title: 'LinkedIn', type: 'url' }),
        requiredField({ name: 'instagram', title: 'Instagram', type: 'url' }),
      ],
    }),
    defineField({
      name: 'copyrightYear',
      title: 'Année du copyright',
      type: 'number',
      validation: (rule) => rule.required().integer().min(2000),
    }),
    requiredField({ name: 'seo', title: 'Référencement par défaut', type: 'seo' }),
    defineField({
      name: 'claims',
      title: 'Chiffres clés (pied de page)',
      type: 'array',
      of: [defineArrayMember({ type: 'localeString' })],
    }),
  ],
  preview: { prepare: () => ({ title: 'Réglages du site' }) },
})
