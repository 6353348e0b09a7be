import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SUBSET_FONTS, subsetOf } from '../../scripts/lib/subset-fonts.ts'

/*
 * The local faces the text is set in until the web fonts arrive (app/font-fallbacks.css) must have the
 * web fonts' sizes and line metrics, or the swap moves the page. Their figures are computed again here
 * from the font files lib/fonts.ts ships, with next/font's own formula (checked against next/font's
 * function on the two faces it knows), so a new font file or a figure edited by hand fails here.
 */

type Glyph = { advanceWidth: number }
type Font = {
  unitsPerEm: number
  ascent: number
  descent: number
  lineGap: number
  glyphsForString: (text: string) => Glyph[]
}
type NextFallbackMetrics = {
  ascentOverride: string
  descentOverride: string
  lineGapOverride: string
  sizeAdjust: string
}

// next/font's compiled internals (no types published): the font reader it measures fonts with, and the
// function that derives its Arial and Times New Roman fallbacks.
const require = createRequire(import.meta.url)
const createFont = (require('next/dist/compiled/@next/font/dist/fontkit') as { default: (data: Buffer) => Font })
  .default
const { getFallbackMetricsFromFontFile } =
  require('next/dist/compiled/@next/font/dist/local/get-fallback-metrics-from-font-file') as {
    getFallbackMetricsFromFontFile: (font: Font, category: 'serif' | 'sans-serif') => NextFallbackMetrics
  }

const root = process.cwd()
// next/font's sample of letters and spaces, weighted like running text.
const SAMPLE = 'aaabcdeeeefghiijklmnnoopqrrssttuvwxyz      '

/** The average advance of SAMPLE, as a fraction of the em. */
const averageWidth = (font: Font) => {
  const widths = font.glyphsForString(SAMPLE).map((glyph) => glyph.advanceWidth)
  return widths.reduce((sum, width) => sum + width, 0) / widths.length / font.unitsPerEm
}

/*
 * The local faces' average widths (SAMPLE, fraction of the em). Arial's and Times New Roman's are
 * next/font's own constants (934.51 and 854.40 per 2048); Arimo and Liberation Sans, Tinos and
 * Liberation Serif measure exactly the same (their metric twins). Roboto's and Noto Serif's were
 * measured with the same reader from their regular latin files (@fontsource/roboto and
 * @fontsource/noto-serif 5.3.0, Google's current cuts, as Android ships them).
 */
const LOCAL_FACES = {
  arial: 934.5116279069767 / 2048,
  timesNewRoman: 854.3953488372093 / 2048,
  roboto: 938 / 2048,
  notoSerif: 497.2325581395349 / 1000,
}

/** The overrides next/font's formula gives `font` over a local face of that average width, in %. */
function overrides(font: Font, localAverageWidth: number) {
  const sizeAdjust = averageWidth(font) / localAverageWidth
  const percent = (value: number) => Math.abs((value / (font.unitsPerEm * sizeAdjust)) * 100)
  return {
    'size-adjust': sizeAdjust * 100,
    'ascent-override': percent(font.ascent),
    'descent-override': percent(font.descent),
    'line-gap-override': percent(font.lineGap),
  }
}

/** The fonts the build writes into .fonts/, cut here as it cuts them (the build may not have run yet). */
const built = new Map<string, Buffer>()
beforeAll(async () => {
  for (const { source, target } of SUBSET_FONTS) built.set(target, await subsetOf(source))
})

/** The font file each web font is built from, as lib/fonts.ts names it. */
function webFont(variable: string): Font {
  const source = readFileSync(join(root, 'lib', 'fonts.ts'), 'utf8')
  const match = new RegExp(`src: '\\.\\./([^']+)',\\s*variable: '${variable}'`).exec(source)
  if (!match) throw new Error(`lib/fonts.ts names no file for ${variable}`)
  return createFont(built.get(match[1]) ?? readFileSync(join(root, match[1])))
}

/** The @font-face rules of app/font-fallbacks.css, by family: their local sources and descriptors. */
function fallbackFaces() {
  const css = readFileSync(join(root, 'app', 'font-fallbacks.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
  const faces = new Map<string, { sources: string[]; descriptors: Record<string, number> }>()
  for (const [, body] of css.matchAll(/@font-face\s*{([^}]*)}/g)) {
    const declarations = Object.fromEntries(
      body
        .split(';')
        .map((declaration) => declaration.trim())
        .filter(Boolean)
        .map((declaration) => [
          declaration.slice(0, declaration.indexOf(':')).trim(),
          declaration.slice(declaration.indexOf(':') + 1).trim(),
        ]),
    )
    const family = declarations['font-family'].replace(/^'|'$/g, '')
    const sources = [...declarations.src.matchAll(/local\('([^']+)'\)/g)].map((match) => match[1])
    const descriptors = Object.fromEntries(
      ['size-adjust', 'ascent-override', 'descent-override', 'line-gap-override'].map((name) => [
        name,
        Number.parseFloat(declarations[name]),
      ]),
    )
    faces.set(family, { sources, descriptors })
  }
  return faces
}

const faces = fallbackFaces()
const cases = [
  {
    family: 'Inter Fallback',
    variable: '--font-inter',
    local: LOCAL_FACES.arial,
    first: 'Arial',
    also: ['Arimo', 'Liberation Sans'],
  },
  { family: 'Inter Fallback Roboto', variable: '--font-inter', local: LOCAL_FACES.roboto, first: 'Roboto', also: [] },
  {
    family: 'Fraunces Fallback',
    variable: '--font-fraunces',
    local: LOCAL_FACES.timesNewRoman,
    first: 'Times New Roman',
    also: ['Tinos', 'Liberation Serif'],
  },
  {
    family: 'Fraunces Fallback Noto',
    variable: '--font-fraunces',
    local: LOCAL_FACES.notoSerif,
    first: 'Noto Serif',
    also: [],
  },
]

describe('the fonts’ local fallbacks (app/font-fallbacks.css)', () => {
  it('the formula is next/font’s: it gives next/font’s own figures over Arial and Times New Roman', () => {
    for (const [variable, local, category] of [
      ['--font-inter', LOCAL_FACES.arial, 'sans-serif'],
      ['--font-fraunces', LOCAL_FACES.timesNewRoman, 'serif'],
    ] as const) {
      const font = webFont(variable)
      const ours = overrides(font, local)
      const next = getFallbackMetricsFromFontFile(font, category)
      expect(ours['size-adjust'].toFixed(2)).toBe(Number.parseFloat(next.sizeAdjust).toFixed(2))
      expect(ours['ascent-override'].toFixed(2)).toBe(Number.parseFloat(next.ascentOverride).toFixed(2))
      expect(ours['descent-override'].toFixed(2)).toBe(Number.parseFloat(next.descentOverride).toFixed(2))
    }
  })

  it.each(cases)('$family has the metrics of its web font over $first', ({ family, variable, local, first, also }) => {
    const face = faces.get(family)
    expect(face, `no @font-face for ${family}`).toBeDefined()
    expect(face!.sources[0]).toBe(first)
    expect(face!.sources).toEqual(expect.arrayContaining(also))
    const expected = overrides(webFont(variable), local)
    for (const [name, value] of Object.entries(expected))
      expect(face!.descriptors[name], `${family} ${name}`).toBeCloseTo(value, 1)
  })

  it('every font stack names its fallbacks right after its web font', () => {
    // The site's design, which both its stylesheets import (app/globals.css, app/first-screen.css).
    const globals = readFileSync(join(root, 'app', 'site-design.css'), 'utf8')
    expect(globals).toContain("@import './font-fallbacks.css';")
    expect(globals).toMatch(/--font-sans: var\(--font-inter\), 'Inter Fallback', 'Inter Fallback Roboto',/)
    expect(globals).toMatch(/--font-display: var\(--font-fraunces\), 'Fraunces Fallback', 'Fraunces Fallback Noto',/)
    expect([...faces.keys()].sort()).toEqual(cases.map((c) => c.family).sort())
  })
})
