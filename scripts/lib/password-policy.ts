import { randomInt } from 'node:crypto'

/*
 * What an admin password must be. The inbox holds personal data, so we ask more than GoTrue's
 * 6-character default: 12+ characters, three kinds of characters, nothing guessable.
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

/** Returns why the password is too weak, or null when it is acceptable. */
export function passwordWeakness(password: string, email = ''): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `it has ${password.length} characters; use at least ${MIN_PASSWORD_LENGTH}`
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES)
    return `it is longer than ${MAX_PASSWORD_BYTES} bytes, which bcrypt would silently cut`
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(password)).length
  if (kinds < 3) return 'mix at least three of: lowercase letters, uppercase letters, digits, symbols'
  if (/^(.)\1*$/.test(password) || new Set(password).size < 6) return 'it repeats too few different characters'
  const lower = password.toLowerCase()
  const common = COMMON.find((word) => lower.includes(word))
  if (common) return `it contains the common word "${common}"`
  const localPart = email.split('@')[0]?.toLowerCase() ?? ''
  if (localPart.length >= 3 && lower.includes(localPart)) return 'it contains the email address'
  return null
}

/** A random 20-character password with every kind of character (about 120 bits). */
export function generateStrongPassword(length = 20): string {
  const sets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '-_.!?@#%+=']
  const all = sets.join('')
  const chars = sets.map((set) => set[randomInt(set.length)])
  while (chars.length < length) chars.push(all[randomInt(all.length)])
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[chars[i], chars[j]] = [chars[j], chars[i]]
  }
  const password = chars.join('')
  return passwordWeakness(password) ? generateStrongPassword(length) : password
}
