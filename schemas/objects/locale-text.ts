import { defineField, defineType } from 'sanity'
import { LocaleInput } from '../../studio/translation/locale-input'
import { englishSourceField, staleEnglishWarning } from '../fields/english-source'
import { requiredField } from '../fields/required-field'

/** A paragraph in French and English; both are required. */
export const localeText = defineType({
  name: 'localeText',
  title: 'Texte (fr/en)',
  type: 'object',
  components: { input: LocaleInput },
  fields: [
    requiredField({ name: 'fr', title: 'Français', type: 'text', rows: 3 }),
    defineField({
      name: 'en',
      title: 'Anglais',
      type: 'text',
      rows: 3,
      validation: (rule) => [rule.required(), staleEnglishWarning(rule)],
    }),
    englishSourceField,
  ],
})
