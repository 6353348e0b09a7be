import localFont from 'next/font/local'

/*
 * Fonts ship inside npm packages, cut down at build time to the characters French and English use
 * (scripts/lib/subset-fonts.ts writes .fonts/), and are self-hosted by next/font/local. Text never
 * waits for them: it paints at once in a local face of the same kind (a sans for Inter, a serif for
 * Fraunces) whose size and line metrics match the typeface's, so a swap changes the letters' shapes and
 * hardly moves a line. Those faces are ours (app/font-fallbacks.css), not next/font's
 * (`adjustFontFallback: false`): its one face, Arial or Times New Roman, is absent from Android and Linux.
 * Neither is preloaded: Chrome holds a page's first frame for a font preloaded in the <head> (up to 100 ms
 * once the <body> begins), and on a phone's slow link neither font ever arrives within that wait,
 * so the hold only delayed the first words (Lighthouse, applied throttling: `/` 926 → 847 ms). Each is
 * asked for by the first layout that uses it. Inter swaps in whenever it arrives (`swap`): its fallback
 * keeps every line where it was. Fraunces is `optional`: a heading that takes one line in the fallback
 * may take two in Fraunces, so a late swap would move the page below it. Chrome never swaps an
 * `optional` face into a document that painted without it, so a first visit keeps the fallback serif
 * for its headings through its client-side navigations, until a full page load finds Fraunces in the
 * cache (docs/decisions.md).
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
  display: 'optional',
  preload: false,
  adjustFontFallback: false,
})
