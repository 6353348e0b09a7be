import { describe, expect, it } from 'vitest'
import { frenchTypography, withFrenchTypography } from '@/lib/i18n/french-typography'
import fr from '@/messages/fr.json'

const NBSP = '\u00a0'
const NARROW = '\u202f'

describe('French typography', () => {
  it('puts a no-break space before a colon and a narrow one before ; ! ?', () => {
    expect(frenchTypography('Des emails qui convertissent : nous écrivons')).toBe(
      `Des emails qui convertissent${NBSP}: nous écrivons`,
    )
    expect(frenchTypography('Prêt à publier ?')).toBe(`Prêt à publier${NARROW}?`)
    expect(frenchTypography('Merci ! À bientôt ; vraiment ?!')).toBe(
      `Merci${NARROW}! À bientôt${NARROW}; vraiment${NARROW}?!`,
    )
  })

  it('keeps guillemets with their words', () => {
    expect(frenchTypography('« Un texte clair »')).toBe(`«${NBSP}Un texte clair${NBSP}»`)
  })

  it('leaves text without a space before punctuation as it is, and is idempotent', () => {
    for (const text of [
      'https://cal.com/plume-et-cap',
      'contact@plume.fr',
      'Note: 4/5',
      '98% de clients satisfaits',
      'Hello?',
    ]) {
      expect(frenchTypography(text)).toBe(text)
    }
    const once = frenchTypography('Pourquoi nous ? Parce que : « résultats »')
    expect(frenchTypography(once)).toBe(once)
  })

  it('handles a span that starts with the space (the text after a link in Portable Text)', () => {
    expect(frenchTypography(' : nous répondons')).toBe(`${NBSP}: nous répondons`)
    expect(frenchTypography('? au début')).toBe('? au début')
  })

  it('walks a whole query result, Portable Text included, but not system fields', () => {
    const result = {
      _id: 'homePage',
      title: 'Prêt ?',
      body: [{ _type: 'block', _key: 'a b ?', children: [{ _type: 'span', text: 'Ensemble : mieux' }] }],
      rating: 5,
      featured: true,
      empty: null,
    }
    expect(withFrenchTypography(result)).toEqual({
      _id: 'homePage',
      title: `Prêt${NARROW}?`,
      body: [{ _type: 'block', _key: 'a b ?', children: [{ _type: 'span', text: `Ensemble${NBSP}: mieux` }] }],
      rating: 5,
      featured: true,
      empty: null,
    })
  })

  it('the French UI messages already follow it', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(strings)
          : []
    const all = strings(fr)
    expect(all.length).toBeGreaterThan(50)
    expect(all.filter((text) => frenchTypography(text) !== text)).toEqual([])
  })
})
