import { defineLocaleResourceBundle } from 'sanity'

/*
 * Validation messages Sanity 6.16 has and @sanity/locale-fr-fr does not translate yet: what an editor
 * reads under a field whose value breaks its rule. Every key Sanity defines in this namespace is
 * covered (tests/unit/studio-french.test.ts).
 */
export const validationFrench = defineLocaleResourceBundle({
  locale: 'fr-FR',
  namespace: 'validation',
  resources: {
    'generic.incorrect-type': 'Type attendu : « {{expectedType}} », reçu : « {{actualType}} »',
    'generic.not-allowed_hint': 'La valeur « {{hint}} » ne fait pas partie des valeurs autorisées',
    'string.regex-does-not-match': 'Ne correspond pas au format « {{name}} »',
    'string.regex-match': 'Ne doit pas correspondre au format « {{name}} »',
  },
})
