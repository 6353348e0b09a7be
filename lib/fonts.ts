import localFont from 'next/font/local'

/*
 * Fonts ship inside npm packages and are self-hosted by next/font/local: no download at build time.
 * Text never waits for them (`swap`): it paints at once in a local face of the same kind (a sans for
 * Inter, a serif for Fraunces) whose size and line metrics match the typeface's, so the swap changes
 * the letters' shapes and hardly moves a line. Those faces are ours (app/font-fallbacks.css), not
 * next/font's (`adjustFontFallback: false`): its one face, Arial or Times New Roman, is absent from
 * Android and Linux. The fonts stay preloaded: on a fast connection they arrive before the first
 * paint, and nothing moves at all (docs/performance.md).
 */
export const inter = localFont({
  src: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  variable: '--font-inter',
  weight: '100 900',
  display: 'swap',
  adjustFontFallback: false,
})

// The display face is only ever set semibold (headings, the brand, prices): its one weight, 18 KB,
// rather than the variable font's every weight, 37 KB.
export const fraunces = localFont({
  src: '../node_modules/@fontsource/fraunces/files/fraunces-latin-600-normal.woff2',
  variable: '--font-fraunces',
  weight: '600',
  display: 'swap',
  adjustFontFallback: false,
})
