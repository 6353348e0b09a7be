import { defineField, defineType } from 'sanity'
import { LocaleInput } from '../../studio/translation/locale-input'
import { englishSourceField, staleEnglishWarning } from '../fields/english-source'
import { requiredField } from '../fields/required-field'

/** A short text in French and English; both are required. */
export const localeString = defineType({
  name: 'localeString',
  title: 'Texte court (fr/en)',
  type: 'object',
  components: { input: LocaleInput },
  fields: [
    requiredField({ name: 'fr', title: 'Français', type: 'string' }),
    defineField({
      name: 'en',
      title: 'Anglais',
      type: 'string',
      validation: (rule) => [rule.required(), staleEnglishWarning(rule)],
    }),
    englishSourceField,
    // On an image's alternative text: the asset it describes (studio/translation/locale-input.tsx).
    defineField({ name: 'forAsset', title: 'Image décrite', type: 'string', hidden: true }),
  ],
  options: { columns: 2 },
})
