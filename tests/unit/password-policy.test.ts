import { describe, expect, it } from 'vitest'
import { passwordWeakness } from '@/lib/admin/password-policy'
import { generateStrongPassword } from '../../scripts/lib/generate-password.ts'

describe('admin password policy', () => {
  it.each([
    ['short', 'Ab1!ab', /at least 12/],
    ['one kind of character', 'abcdefghijklmnop', /lowercase letters, uppercase letters and digits/],
    ['two kinds', 'abcdefghijkl1234', /lowercase letters, uppercase letters and digits/],
    [
      'no digit (Supabase Auth would refuse it too)',
      'abc!DEF@ghi#jk',
      /lowercase letters, uppercase letters and digits/,
    ],
    ['a common word', 'MotDePasse-2026!', /motdepasse/],
    ['few distinct characters', 'Aa1!Aa1!Aa1!Aa1!', /different characters/],
    ['the email in it', 'Camille.Martin-2026', /email/],
    ['over 72 bytes', `Aa1!${'é'.repeat(40)}`, /72 bytes/],
  ])('refuses a password with %s and says why', (_label, password, reason) => {
    expect(passwordWeakness(password, 'camille.martin@example.fr')).toMatch(reason)
  })

  it('says why in French for the inbox', () => {
    expect(passwordWeakness('court', '', 'fr')).toBe('il a 5 caractères, il en faut au moins 12')
    expect(passwordWeakness('a', '', 'fr')).toBe('il a 1 caractère, il en faut au moins 12')
    expect(passwordWeakness('a', '')).toBe('it has 1 character; use at least 12')
    expect(passwordWeakness('abcdefghijkl1234', '', 'fr')).toBe('il doit mêler minuscules, majuscules et chiffres')
  })

  it('accepts a long mixed password', () => {
    expect(passwordWeakness('Rivage-Encre-Bleue-42', 'camille@example.fr')).toBeNull()
  })

  it('generates different strong passwords every time', () => {
    const passwords = Array.from({ length: 50 }, () => generateStrongPassword())
    expect(new Set(passwords).size).toBe(50)
    for (const password of passwords) {
      expect(password).toHaveLength(20)
      expect(passwordWeakness(password)).toBeNull()
    }
  })
})
