import { defineLocaleResourceBundle } from 'sanity'

/*
 * Why a field could not be pasted (« Coller le champ » in a field's menu): the messages Sanity 6.16
 * has and @sanity/locale-fr-fr, made for an older Sanity, does not translate yet. Every key Sanity
 * defines in this namespace is covered (tests/unit/studio-french.test.ts).
 */
export const copyPasteFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'copy-paste',
  resources: {
    'copy-paste.on-paste.validation.read-only-fields-skipped.description':
      'Champs en lecture seule ignorés : {{fieldNames}}',
    // Sanity passes the count: i18next takes the plural form French needs (« et 1 autre »).
    'copy-paste.on-paste.validation.read-only-fields-skipped-truncated.description_one':
      'Champs en lecture seule ignorés : {{fieldNames}} et {{count}} autre',
    'copy-paste.on-paste.validation.read-only-fields-skipped-truncated.description_other':
      'Champs en lecture seule ignorés : {{fieldNames}} et {{count}} autres',
    'copy-paste.on-paste.validation.reference-type-incompatible.description':
      'Une référence de type « {{sourceReferenceType}} » n’est pas autorisée dans un champ de référence qui accepte les types « {{targetReferenceTypes}} »',
    'copy-paste.on-paste.validation.reference-validation-failed.description':
      'Le document référencé « {{ref}} » n’existe pas',
    'copy-paste.on-paste.validation.image-file-incompatible.description':
      'Un « {{sourceSchemaType}} » n’est pas autorisé dans un « {{targetSchemaType}} »',
    'copy-paste.on-paste.validation.array-type-incompatible.description':
      'Une valeur de type « {{type}} » n’est pas autorisée dans ce champ de liste',
    'copy-paste.on-paste.validation.array-value-incompatible.description':
      'Une valeur de type « {{type}} » n’est pas autorisée dans ce champ de liste',
    'copy-paste.on-paste.validation.string-value-incompatible.description':
      'La valeur « {{value}} » ne fait pas partie de « {{allowedStrings}} »',
    'copy-paste.on-paste.validation.primitive-type-incompatible.description':
      'Une valeur de type « {{type}} » n’est pas autorisée dans ce champ',
    'copy-paste.on-paste.validation.mime-type-incompatible.description':
      'Le type MIME « {{mimeType}} » n’est pas accepté dans ce champ',
  },
})
