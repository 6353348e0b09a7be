import { defineArrayMember, defineField, defineType } from 'sanity'
import { LocaleInput } from '../../studio/translation/locale-input'
import { englishSourceField, staleEnglishWarning } from '../fields/english-source'

const blocks = defineArrayMember({
  type: 'block',
  styles: [
    { title: 'Paragraphe', value: 'normal' },
    { title: 'Intertitre', value: 'h3' },
  ],
  lists: [{ title: 'Liste', value: 'bullet' }],
  marks: {
    decorators: [
      { title: 'Gras', value: 'strong' },
      { title: 'Italique', value: 'em' },
    ],
    annotations: [
      defineArrayMember({
        name: 'link',
        title: 'Lien',
        type: 'object',
        fields: [
          defineField({
            name: 'href',
            title: 'URL',
            type: 'url',
            validation: (rule) =>
              rule.required().uri({ allowRelative: true, scheme: ['http', 'https', 'mailto', 'tel'] }),
          }),
        ],
      }),
    ],
  },
})

/** Rich text (paragraphs, lists, links, emphasis) in French and English; both are required. */
export const localeBlockContent = defineType({
  name: 'localeBlockContent',
  title: 'Texte riche (fr/en)',
  type: 'object',
  components: { input: LocaleInput },
  fields: [
    defineField({
      name: 'fr',
      title: 'Français',
      type: 'array',
      of: [blocks],
      validation: (rule) => rule.required().min(1),
    }),
    defineField({
      name: 'en',
      title: 'Anglais',
      type: 'array',
      of: [blocks],
      validation: (rule) => [rule.required().min(1), staleEnglishWarning(rule)],
    }),
    englishSourceField,
  ],
})
