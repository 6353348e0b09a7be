import { describe, expect, it } from 'vitest'
import en from '@/messages/en.json'
import fr from '@/messages/fr.json'
import { createContactSchema, type ContactMessages } from '@/lib/contact/contact-schema'
import {
  hasInvisibleCharacters,
  INVISIBLE_RANGES,
  MESSAGE_WHITESPACE,
  revealInvisibleCharacters,
  splitInvisibleCharacters,
} from '@/supabase/functions/_shared/invisible-characters'

const VALID = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '',
  message: 'Bonjour, un message de test.',
  website: '',
}
const firstError = (messages: ContactMessages, values: Partial<typeof VALID>) => {
  const result = createContactSchema({ variant: 'page', messages }).safeParse({ ...VALID, ...values })
  return result.success
    ? null
    : { path: result.error.issues[0].path.join('.'), message: result.error.issues[0].message }
}

describe('invisible characters', () => {
  it('the list is exactly Unicode categories Cc, Cf, Zl and Zp, as this JavaScript engine knows them', () => {
    const listed = (codePoint: number) => INVISIBLE_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to)
    const mismatches: string[] = []
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue
      const category = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(String.fromCodePoint(codePoint))
      if (category !== listed(codePoint) || category !== hasInvisibleCharacters(String.fromCodePoint(codePoint)))
        mismatches.push(codePoint.toString(16))
    }
    expect(mismatches).toEqual([])
  })

  it('the probe spoof and its relatives are caught; ordinary names, accents and emoji are not', () => {
    for (const spoof of ['Bob \u202egnp.exe', 'Bob\u200bSmith', 'Al\u2066ice', 'x\u0007y', 'Tag\u{e0041}'])
      expect(hasInvisibleCharacters(spoof), JSON.stringify(spoof)).toBe(true)
    for (const fine of [
      'Camille Martin',
      'Zoë Ångström-Łukasz',
      "O'Brien",
      'محمد',
      '李小龍',
      'Anaïs 😀',
      'Jean\u00a0Dupont',
    ])
      expect(hasInvisibleCharacters(fine), fine).toBe(false)
  })

  it("the inbox and the email show what remains as marks, keeping a message's line breaks and tabs", () => {
    expect(revealInvisibleCharacters('Bob \u202egnp.exe')).toBe('Bob [U+202E]gnp.exe')
    expect(revealInvisibleCharacters('a\u200b\n\tb\u{e0041}', MESSAGE_WHITESPACE)).toBe('a[U+200B]\n\tb[U+E0041]')
    expect(splitInvisibleCharacters('x\u202ey')).toEqual([{ text: 'x' }, { invisible: 0x202e }, { text: 'y' }])
    expect(splitInvisibleCharacters('plain')).toEqual([{ text: 'plain' }])
  })
})

describe('contact schema: no invisible characters in the name or the email', () => {
  it('refuses them with a clear message, in French and in English', () => {
    expect(firstError(fr.ContactForm.rules, { name: 'Bob \u202egnp.exe' })).toEqual({
      path: 'name',
      message: 'Le nom ne doit pas contenir de caractères invisibles',
    })
    expect(firstError(fr.ContactForm.rules, { email: 'bob\u200b@example.fr' })).toEqual({
      path: 'email',
      message: "L'email ne doit pas contenir de caractères invisibles",
    })
    const english = en.ContactForm.rules
    expect(firstError(english, { name: 'Bob\u200bSmith' })).toEqual({
      path: 'name',
      message: 'The name must not contain invisible characters',
    })
    expect(firstError(english, { email: 'bob\u2066@example.fr' })).toEqual({
      path: 'email',
      message: 'The email must not contain invisible characters',
    })
  })

  it('accepts them in the message (shown as marks in the inbox) and trims them at the edges like other whitespace', () => {
    expect(firstError(fr.ContactForm.rules, { message: 'Voir la pièce \u202ejointe, merci.' })).toBeNull()
    expect(firstError(fr.ContactForm.rules, { name: '\ufeffCamille\u2028' })).toBeNull()
  })
})
