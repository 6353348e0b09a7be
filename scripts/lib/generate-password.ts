import { randomInt } from 'node:crypto'
import { passwordWeakness } from '../../lib/admin/password-policy.ts'

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
