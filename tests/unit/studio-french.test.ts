import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { presentationFrench } from '@/studio/locale/presentation-fr'
import { structureFrench } from '@/studio/locale/structure-fr'
import { studioFrench } from '@/studio/locale/studio-fr'
import { validationFrench } from '@/studio/locale/validation-fr'

// The Studio speaks French wherever an editor goes: for the namespaces the site completes (the
// Studio itself, the structure tool, Presentation and validation), every text Sanity defines in English has its French, from
// @sanity/locale-fr-fr or from our bundle. A Sanity upgrade that adds texts fails here until they are.

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/

const keysOf = (source: string) => new Set([...source.matchAll(/^\s*"([a-z0-9_.-]+)":\s*"/gim)].map(([, key]) => key))

/** The keys of a namespace's English texts, from Sanity's own resource file. */
function english(namespace: string): Set<string> {
  const marker = `defineLocalesResources("${namespace}"`
  for (const file of readdirSync('node_modules/sanity/lib').filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(`node_modules/sanity/lib/${file}`, 'utf8')
    const start = source.indexOf(marker)
    // The object ends at the first line that closes it (`})`, however indented).
    if (start >= 0) return keysOf(source.slice(start, start + source.slice(start).search(/\n\s*\}\)/)))
  }
  return new Set()
}

/** The keys @sanity/locale-fr-fr translates in a namespace. */
function packageFrench(namespace: string): Set<string> {
  const file = `node_modules/@sanity/locale-fr-fr/dist/_chunks-es/${namespace}.js`
  return existsSync(file) ? keysOf(readFileSync(file, 'utf8')) : new Set()
}

describe('the Studio in French', () => {
  for (const bundle of [studioFrench, structureFrench, presentationFrench, validationFrench]) {
    it(`the ${bundle.namespace} namespace: every English text has its French`, () => {
      const defined = english(bundle.namespace)
      expect(defined.size).toBeGreaterThan(20)
      const french = new Set([...packageFrench(bundle.namespace), ...Object.keys(bundle.resources)])
      // A plural form (`…_one`) without its own French takes its key's (i18next falls back to it).
      const translated = (key: string) => french.has(key) || french.has(key.replace(PLURAL_SUFFIX, ''))
      expect([...defined].filter((key) => !translated(key))).toEqual([])
    })
  }
})
