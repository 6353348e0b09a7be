import localFont from 'next/font/local'

/*
 * Fonts ship inside npm packages, cut down at build time to the characters French and English use
 * (scripts/lib/subset-fonts.ts writes .fonts/), and are self-hosted by next/font/local. Text never
 * waits for them: it paints at once in a local face of the same kind (a sans for Inter, a serif for
 * Fraunces) whose size and line metrics match the typeface's, so a swap changes the letters' shapes and
 * hardly moves a line. Those faces are ours (app/font-fallbacks.css), not next/font's
 * (`adjustFontFallback: false`): its one face, Arial or Times New Roman, is absent from Android and Linux.
 * Inter sets the text of every first screen and is preloaded; it swaps in whenever it arrives (`swap`):
 * its fallback keeps every line where it was. Fraunces sets the headings and is not preloaded: Chrome
 * holds a slow phone's first frame up to 100 ms for a preloaded font it may not swap. It is asked for
 * with the first layout and swaps in within its short window (`fallback`), over a fallback cut to its
 * weight and widths, so that a heading keeps its lines when it swaps (docs/decisions.md).
 */
export const inter = localFont({
  src: '../.fonts/inter-wght-fr-en.woff2',
  variable: '--font-inter',
  weight: '100 900',
  display: 'swap',
  adjustFontFallback: false,
})

// The display face is only ever set semibold (headings, the brand, prices): its one weight, 18 KB,
// rather than the variable font's every weight, 37 KB.
export const fraunces = localFont({
  src: '../.fonts/fraunces-600-fr-en.woff2',
  variable: '--font-fraunces',
  weight: '600',
  display: 'fallback',
  preload: false,
  adjustFontFallback: false,
})
