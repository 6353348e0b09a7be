import { defineField, defineType } from 'sanity'
import { LocaleInput } from '../../studio/translation/locale-input'
import { englishSourceField, staleEnglishWarning } from '../fields/english-source'

/** A paragraph in French and English; both are required. */
export const localeText = defineType({
  name: 'localeText',
  title: 'Texte (fr/en)',
  type: 'object',
  components: { input: LocaleInput },
  fields: [
    defineField({ name: 'fr', title: 'Français', type: 'text', rows: 3, validation: (rule) => rule.required() }),
    defineField({
      name: 'en',
      title: 'English',
      type: 'text',
      rows: 3,
      validation: (rule) => [rule.required(), staleEnglishWarning(rule)],
    }),
    englishSourceField,
  ],
})
