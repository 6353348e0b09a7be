import { defineField, type FieldDefinition } from 'sanity'
import { requiredField } from './required-field'

/** The surtitle and title every banner opens with: also the about page's (which has no button). */
export const heroHeadingFields = [
  requiredField({
    name: 'eyebrow',
    title: 'Surtitre',
    type: 'localeString',
  }),
  requiredField({ name: 'title', title: 'Titre', type: 'localeString' }),
]

/**
 * The banner at the top of the home page and of a service page: surtitle, title, subtitle and button,
 * then whatever the page adds. A field, not a named object type: both heroes stay inline objects, so
 * documents keep their shape (no `_type` of their own) and TypeGen its types.
 */
export function heroField({
  title,
  ctaLabelTitle,
  fields = [],
}: {
  /** The Studio label of the banner. */
  title: string
  /** The Studio label of its button, which says where the button leads. */
  ctaLabelTitle: string
  /** Fields after the button's label. */
  fields?: FieldDefinition[]
}) {
  return defineField({
    name: 'hero',
    title,
    type: 'object',
    fields: [
      ...heroHeadingFields,
      requiredField({
        name: 'subtitle',
        title: 'Sous-titre',
        type: 'localeText',
      }),
      requiredField({
        name: 'ctaLabel',
        title: ctaLabelTitle,
        type: 'localeString',
      }),
      ...fields,
    ],
  })
}
