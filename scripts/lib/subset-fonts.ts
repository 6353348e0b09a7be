import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import subsetFont from 'subset-font'

/*
 * The two web fonts cut down, at build time, to the characters the site's French and English set in
 * them (HarfBuzz's subsetter, through subset-font): the letters and punctuation of both languages and
 * of the names and words editors write in them (all of Latin-1), French typography's spaces and quotes.
 * HarfBuzz also keeps only the default layout features (kerning, ligatures, marks): Inter's stylistic
 * sets and character variants, which the site never turns on, go with their glyphs. A character outside
 * the set still shows, in the fallback face of the same kind and metrics (app/font-fallbacks.css).
 * next/font/local reads the results from .fonts/ (lib/fonts.ts).
 */

const ranges: Array<[number, number]> = [
  [0x20, 0x7e], // ASCII
  [0xa0, 0xff], // Latin-1: no-break space, « », accented letters of French and its neighbours, × ° ©
  [0x152, 0x153], // Œ œ
  [0x178, 0x178], // Ÿ
  [0x2009, 0x2009], // thin space
  [0x2011, 0x2011], // non-breaking hyphen
  [0x2013, 0x2014], // – —
  [0x2018, 0x201e], // ‘ ’ ‚ “ ” „
  [0x2022, 0x2022], // •
  [0x2026, 0x2026], // …
  [0x202f, 0x202f], // narrow no-break space (before ; : ! ? and inside « »)
  [0x2039, 0x203a], // ‹ ›
  [0x20ac, 0x20ac], // €
  [0x2122, 0x2122], // ™
  [0x2192, 0x2192], // →
  [0x2212, 0x2212], // −
  [0x2264, 0x2265], // ≤ ≥
]
export const SITE_CHARACTERS = ranges
  .flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)))
  .join('')

export const SUBSET_FONTS = [
  {
    source: 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    target: '.fonts/inter-wght-fr-en.woff2',
  },
  {
    source: 'node_modules/@fontsource/fraunces/files/fraunces-latin-600-normal.woff2',
    target: '.fonts/fraunces-600-fr-en.woff2',
  },
]

/** A font file cut down to SITE_CHARACTERS, as WOFF2 (a variable font keeps its axes). */
export const subsetOf = (source: string): Promise<Buffer> =>
  subsetFont(readFileSync(source), SITE_CHARACTERS, { targetFormat: 'woff2' })

/** Writes each subset font; resolves with the sizes before and after. */
export async function subsetFonts(): Promise<Array<{ target: string; before: number; after: number }>> {
  return Promise.all(
    SUBSET_FONTS.map(async ({ source, target }) => {
      const original = readFileSync(source)
      const subset = await subsetOf(source)
      mkdirSync(dirname(target), { recursive: true })
      // Unchanged bytes are not rewritten: the build's inputs stay as they were.
      if (!existsSync(target) || !readFileSync(target).equals(subset)) writeFileSync(target, subset)
      return { target, before: original.length, after: subset.length }
    }),
  )
}
