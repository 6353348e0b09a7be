/*
 * How the inbox's search compares texts: accents, case and a few typographic variants are set aside,
 * so « FENETRE » finds « fenêtre » and « l'agence » finds « l’agence ». The database folds each
 * message's name, email and text into a stored column the same way (private.fold_for_search, in
 * supabase/migrations/20261210100200_contact_search.sql); the inbox folds the search term here and
 * matches it with ILIKE, which also ignores case beyond ASCII where the database's locale knows it.
 * tests/integration/contact-search.test.ts compares the two on every code point of the BMP.
 *
 * The steps, in this order on both sides: canonical decomposition (NFD), then the combining
 * diacritical marks (U+0300–U+036F) removed, then the letters that carry no decomposable accent spelled
 * out (œ → oe, ß → ss, ø → o, đ → d, ł → l), typographic apostrophes and no-break spaces made plain,
 * and A–Z lower-cased.
 */

/** Replaced after the marks are removed (each by text containing none of the others). */
export const SPELLED_OUT: readonly (readonly [string, string])[] = [
  ['œ', 'oe'],
  ['Œ', 'oe'],
  ['æ', 'ae'],
  ['Æ', 'ae'],
  ['ß', 'ss'],
  ['ẞ', 'ss'],
  ['ø', 'o'],
  ['Ø', 'o'],
  ['đ', 'd'],
  ['Đ', 'd'],
  ['ł', 'l'],
  ['Ł', 'l'],
  ['\u2019', "'"],
  ['\u2018', "'"],
  ['\u00a0', ' '],
  ['\u202f', ' '],
]

export function foldForSearch(text: string): string {
  let folded = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
  for (const [from, to] of SPELLED_OUT) folded = folded.replaceAll(from, to)
  return folded.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
}
