import { describe, expect, it } from 'vitest'
import { localizedPath, unlocalizedPath } from '@/lib/i18n/localized-path'

describe('localizedPath', () => {
  it('leaves French paths unprefixed and puts English under /en', () => {
    expect(['/', '/about', '/#benefits', '/linkedin-services'].map((path) => localizedPath(path, 'fr'))).toEqual([
      '/',
      '/about',
      '/#benefits',
      '/linkedin-services',
    ])
    expect(
      ['/', '/about', '/#benefits', '/?q=1', '/linkedin-services'].map((path) => localizedPath(path, 'en')),
    ).toEqual(['/en', '/en/about', '/en#benefits', '/en?q=1', '/en/linkedin-services'])
  })
})

describe('unlocalizedPath', () => {
  it('strips either prefix, whichever form the router reports', () => {
    expect(
      ['/', '/about', '/fr', '/fr/about', '/en', '/en/about', '/entreprise', '/french'].map(unlocalizedPath),
    ).toEqual(['/', '/about', '/', '/about', '/', '/about', '/entreprise', '/french'])
  })

  it('is the inverse of localizedPath for every page path', () => {
    for (const path of ['/', '/about', '/contact', '/redaction-web']) {
      for (const locale of ['fr', 'en'] as const) expect(unlocalizedPath(localizedPath(path, locale))).toBe(path)
    }
  })
})
