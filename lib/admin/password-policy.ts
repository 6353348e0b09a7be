/*
 * What an admin password must be, wherever one is chosen (`npm run admin:create`, the inbox's « Mot de
 * passe oublié » page). The inbox holds personal data, so we ask more than GoTrue's 6-character
 * default: 12+ characters with lowercase and uppercase letters and digits (as supabase/config.toml
 * asks of the project, so Supabase Auth refuses what this refuses), nothing guessable.
 */

export const MIN_PASSWORD_LENGTH = 12
/** bcrypt ignores everything past 72 bytes: a longer password would be silently truncated. */
export const MAX_PASSWORD_BYTES = 72

const COMMON = [
  'password',
  'motdepasse',
  'azerty',
  'qwerty',
  '123456',
  'admin',
  'welcome',
  'bienvenue',
  'letmein',
  'changeme',
  'plume',
  'secret',
]

type Language = 'en' | 'fr'

const REASONS = {
  length: {
    en: (length: number) =>
      `it has ${length} ${length === 1 ? 'character' : 'characters'}; use at least ${MIN_PASSWORD_LENGTH}`,
    // French plural: 0 and 1 are singular.
    fr: (length: number) =>
      `il a ${length} ${length > 1 ? 'caractères' : 'caractère'}, il en faut au moins ${MIN_PASSWORD_LENGTH}`,
  },
  bytes: {
    en: () => `it is longer than ${MAX_PASSWORD_BYTES} bytes, which bcrypt would silently cut`,
    fr: () => `il dépasse ${MAX_PASSWORD_BYTES} octets, que le chiffrement couperait sans le dire`,
  },
  kinds: {
    en: () => 'mix lowercase letters, uppercase letters and digits',
    fr: () => 'il doit mêler minuscules, majuscules et chiffres',
  },
  repeats: {
    en: () => 'it repeats too few different characters',
    fr: () => 'il répète trop peu de caractères différents',
  },
  common: {
    en: (word: string) => `it contains the common word "${word}"`,
    fr: (word: string) => `il contient le mot trop courant « ${word} »`,
  },
  email: { en: () => 'it contains the email address', fr: () => 'il contient l’adresse email' },
}

/** Returns why the password is too weak (in English for the command line, in French for the inbox), or null. */
export function passwordWeakness(password: string, email = '', language: Language = 'en'): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return REASONS.length[language](password.length)
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) return REASONS.bytes[language]()
  if (![/[a-z]/, /[A-Z]/, /[0-9]/].every((pattern) => pattern.test(password))) return REASONS.kinds[language]()
  if (/^(.)\1*$/.test(password) || new Set(password).size < 6) return REASONS.repeats[language]()
  const lower = password.toLowerCase()
  const common = COMMON.find((word) => lower.includes(word))
  if (common) return REASONS.common[language](common)
  const localPart = email.split('@')[0]?.toLowerCase() ?? ''
  if (localPart.length >= 3 && lower.includes(localPart)) return REASONS.email[language]()
  return null
}
