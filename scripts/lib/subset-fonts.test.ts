import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SITE_CHARACTERS, SUBSET_FONTS, subsetOf } from './subset-fonts.ts'

/** Every character the seed's texts and the interface's messages set (controls and line breaks aside). */
function charactersInUse(): string[] {
  const text = [
    readFileSync('studio/seed/production.ndjson', 'utf8'),
    readFileSync('messages/fr.json', 'utf8'),
    readFileSync('messages/en.json', 'utf8'),
  ].join('')
  return [...new Set(text)].filter((character) => !/[\p{Cc}]/u.test(character))
}

describe('the web fonts cut down to the site’s characters', () => {
  it('keep every character the content and the interface use today', () => {
    const missing = charactersInUse().filter((character) => !SITE_CHARACTERS.includes(character))
    expect(missing.map((character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`)).toEqual([])
  })

  it('are smaller than the package’s files', async () => {
    for (const { source } of SUBSET_FONTS) {
      const subset = await subsetOf(source)
      expect(subset.subarray(0, 4).toString('latin1')).toBe('wOF2')
      expect(subset.length).toBeLessThan(readFileSync(source).length)
    }
  })
})
