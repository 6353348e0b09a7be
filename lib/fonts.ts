import localFont from 'next/font/local'

/*
 * Fonts ship inside npm packages, cut down at build time to the characters French and English use
 * (scripts/lib/subset-fonts.ts writes .fonts/), and are self-hosted by next/font/local. Text never
 * waits for them: it paints at once in a local face of the same kind (a sans for Inter, a serif for
 * Fraunces) whose size and line metrics match the typeface's, so a swap changes the letters' shapes and
 * hardly moves a line. Those faces are ours (app/font-fallbacks.css), not next/font's
 * (`adjustFontFallback: false`): its one face, Arial or Times New Roman, is absent from Android and Linux.
 * Neither is preloaded: Chrome holds a page's first frame for a preloaded font (up to 100 ms on a slow
 * link), which cost phones that much of their first paint. Inter swaps in whenever it arrives (`swap`).
 * Fraunces (`fallback`) keeps a heading blank for at most 100 ms, enough for it to arrive on a fast link,
 * then shows the fallback serif and swaps within 3 s (docs/decisions.md).
 */
export const inter = localFont({
  src: '../.fonts/inter-wght-fr-en.woff2',
  variable: '--font-inter',
  weight: '100 900',
  display: 'swap',
  preload: false,
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
