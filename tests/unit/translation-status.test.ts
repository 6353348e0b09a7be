import { describe, expect, it } from 'vitest'
import {
  englishSourceFor,
  fieldsToReview,
  localeFields,
  pathToString,
  plainText,
  translationStatus,
} from '@/lib/i18n/translation-status'

const block = (text: string, key = 'b') => ({
  _type: 'block',
  _key: key,
  style: 'normal',
  markDefs: [],
  children: [{ _type: 'span', _key: `${key}s`, marks: [], text }],
})

describe('translationStatus (read from the content: the French the English was written from)', () => {
  it('à jour while the French is what the English was written from, spaces aside', () => {
    const value = {
      fr: 'Offre  Growth',
      en: 'Growth plan',
      enSource: { fr: 'Offre Growth', at: '2026-11-01T09:00:00Z' },
    }
    expect(translationStatus(value)).toMatchObject({ state: 'current', writtenAt: '2026-11-01T09:00:00Z' })
  })

  it('à revoir once the French changed, wherever it was changed; à jour again when it is put back', () => {
    const written = { fr: '990 € par mois', en: '€990 a month', enSource: { fr: '990 € par mois' } }
    const changed = { ...written, fr: '1 090 € par mois' }
    expect(translationStatus(changed)).toMatchObject({
      state: 'stale',
      fr: '1 090 € par mois',
      sourceFr: '990 € par mois',
    })
    expect(translationStatus({ ...changed, fr: '990 € par mois' }).state).toBe('current')
  })

  it('manquant when there is French and no English; nothing to say without French', () => {
    expect(translationStatus({ fr: 'Bonjour', en: '  ' }).state).toBe('missing')
    expect(translationStatus({ fr: 'Bonjour' }).state).toBe('missing')
    expect(translationStatus({ fr: '', en: 'Hello' }).state).toBe('none')
    expect(translationStatus(undefined).state).toBe('none')
  })

  it('a field written before the status existed (no source recorded) reads as à jour', () => {
    expect(translationStatus({ fr: 'Bonjour', en: 'Hello' }).state).toBe('current')
  })

  it('rich text compares its paragraphs’ text', () => {
    const value = { fr: [block('Un'), block('Deux', 'c')], en: [block('One')], enSource: { fr: 'Un\nDeux' } }
    expect(plainText(value.fr)).toBe('Un\nDeux')
    expect(translationStatus(value).state).toBe('current')
    expect(translationStatus({ ...value, fr: [block('Un'), block('Trois', 'c')] }).state).toBe('stale')
  })

  it('englishSourceFor records the French now, and when', () => {
    expect(englishSourceFor({ fr: [block('Un')] }, new Date('2026-11-27T10:00:00Z'))).toEqual({
      fr: 'Un',
      at: '2026-11-27T10:00:00.000Z',
    })
  })
})

describe('localeFields / fieldsToReview (one walk over a document, no request)', () => {
  const document = {
    _id: 'service-linkedin',
    _type: 'service',
    title: { _type: 'localeString', fr: 'LinkedIn', en: 'LinkedIn', enSource: { fr: 'LinkedIn' } },
    slug: { _type: 'slug', current: 'linkedin' },
    packages: [
      {
        _key: 'growth',
        _type: 'servicePackage',
        price: { _type: 'localeString', fr: '1 090 €', en: '€990', enSource: { fr: '990 €' } },
        features: [{ _key: 'f1', _type: 'localeString', fr: 'Deux posts', en: '' }],
      },
    ],
  }

  it('finds every bilingual field with its path, and only those', () => {
    expect(localeFields(document).map(({ path }) => pathToString(path))).toEqual([
      'title',
      'packages[_key=="growth"].price',
      'packages[_key=="growth"].features[_key=="f1"]',
    ])
  })

  it('keeps the stale and the missing, in document order', () => {
    expect(fieldsToReview(document).map(({ path, status }) => [pathToString(path), status.state])).toEqual([
      ['packages[_key=="growth"].price', 'stale'],
      ['packages[_key=="growth"].features[_key=="f1"]', 'missing'],
    ])
  })

  it('an image replaced since its alternative text was written: the text is « à revoir » in both languages', () => {
    const alt = { _type: 'localeString', fr: 'La fondatrice', en: 'The founder', enSource: { fr: 'La fondatrice' } }
    const photo = (forAsset: string | undefined) => ({
      _id: 'aboutPage',
      photo: { _type: 'image', asset: { _ref: 'image-new' }, alt: { ...alt, forAsset } },
    })
    const [field] = fieldsToReview(photo('image-old'))
    expect([pathToString(field.path), field.status.state, field.status.imageReplaced]).toEqual([
      'photo.alt',
      'stale',
      true,
    ])
    // Written for this image, or before the Studio recorded which: nothing to review.
    expect(fieldsToReview(photo('image-new'))).toEqual([])
    expect(fieldsToReview(photo(undefined))).toEqual([])
  })
})
