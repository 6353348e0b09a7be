/*
 * Invisible characters: controls (Unicode category Cc), format characters (Cf: zero-width spaces and
 * joiners, bidirectional embeddings, overrides and isolates, tags…) and the line and paragraph
 * separators (Zl, Zp). None has a glyph, and some rewrite how the text around them reads: with
 * U+202E RIGHT-TO-LEFT OVERRIDE, "Bob \u202Egnp.exe" shows as "Bob exe.png".
 *
 * One list (Unicode 17) for every place that applies the rule: the contact schema refuses them in
 * the name and the email, the database CHECKs do the same with the same ranges
 * (private.has_invisible_characters, in the migrations; a test compares the two on every code point),
 * and the inbox and the notification email show any that remain, in a message, as visible marks.
 */

/** Inclusive code point ranges. */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
]

const hex = (codePoint: number) => codePoint.toString(16).padStart(4, '0')
const INVISIBLE = new RegExp(
  `[${INVISIBLE_RANGES.map(([from, to]) => `\\u{${hex(from)}}-\\u{${hex(to)}}`).join('')}]`,
  'u',
)

export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text)
}

/** "U+202E", as the inbox and the email name an invisible character. */
export function codePointLabel(codePoint: number): string {
  return `U+${hex(codePoint).toUpperCase()}`
}

export type TextPiece = { text: string } | { invisible: number }

/**
 * The text cut into visible runs and invisible characters (by code point), for showing the latter
 * as marks. Characters in `keep` (e.g. a message's line breaks and tabs) stay in the runs.
 */
export function splitInvisibleCharacters(text: string, keep = ''): TextPiece[] {
  const pieces: TextPiece[] = []
  let run = ''
  for (const character of text) {
    if (!keep.includes(character) && INVISIBLE.test(character)) {
      if (run) pieces.push({ text: run })
      run = ''
      pieces.push({ invisible: character.codePointAt(0)! })
    } else run += character
  }
  if (run) pieces.push({ text: run })
  return pieces
}

/** The text with each invisible character (but those in `keep`) written as "[U+202E]". */
export function revealInvisibleCharacters(text: string, keep = ''): string {
  return splitInvisibleCharacters(text, keep)
    .map((piece) => ('text' in piece ? piece.text : `[${codePointLabel(piece.invisible)}]`))
    .join('')
}

/** What a message legitimately contains among them: line breaks and tabs. */
export const MESSAGE_WHITESPACE = '\n\r\t'
