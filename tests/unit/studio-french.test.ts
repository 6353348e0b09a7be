import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { frenchBundles } from '@/studio/locale/french-bundles'

// The Studio speaks French wherever an editor goes: in every namespace Sanity defines, every text it
// defines in English has its French, from @sanity/locale-fr-fr or from the bundles sanity.config.ts
// adds. A Sanity upgrade that adds texts, or a whole namespace, fails here until they are.

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/

// A key is quoted when it is not a plain identifier (`"action.archive": "…"`), bare when it is (`created: "…"`).
const keysOf = (source: string) => new Set([...source.matchAll(/^\s*"?([a-z0-9_.-]+)"?:\s*"/gim)].map(([, key]) => key))

/** Each namespace's English keys, from Sanity's own resource files (`defineLocalesResources(…)`). */
function englishNamespaces(): Map<string, Set<string>> {
  const namespaces = new Map<string, Set<string>>()
  for (const file of readdirSync('node_modules/sanity/lib').filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(`node_modules/sanity/lib/${file}`, 'utf8')
    for (const { 1: namespace, index } of source.matchAll(/defineLocalesResources\("([\w-]+)"/g)) {
      // The object ends at the first line that closes it (`})`, however indented).
      const body = source.slice(index, index + source.slice(index).search(/\n\s*\}\)/))
      namespaces.set(namespace, new Set([...(namespaces.get(namespace) ?? []), ...keysOf(body)]))
    }
  }
  return namespaces
}

/** The keys @sanity/locale-fr-fr translates in a namespace. */
function packageFrench(namespace: string): Set<string> {
  const file = `node_modules/@sanity/locale-fr-fr/dist/_chunks-es/${namespace}.js`
  return existsSync(file) ? keysOf(readFileSync(file, 'utf8')) : new Set()
}

/** The keys our bundles (the Studio's `i18n.bundles`) translate in a namespace. */
const ourFrench = (namespace: string) =>
  frenchBundles
    .filter((bundle) => bundle.locale === 'fr-FR' && bundle.namespace === namespace)
    .flatMap((bundle) => Object.keys(bundle.resources))

describe('the Studio in French', () => {
  const namespaces = englishNamespaces()
  it('finds the namespaces editors meet in Sanity’s resource files', () => {
    for (const namespace of ['studio', 'structure', 'validation', 'presentation', 'releases', 'copy-paste'])
      expect(namespaces.get(namespace)?.size, namespace).toBeGreaterThan(20)
  })
  for (const [namespace, defined] of namespaces) {
    it(`the ${namespace} namespace: every English text has its French`, () => {
      const french = new Set([...packageFrench(namespace), ...ourFrench(namespace)])
      // A plural form (`…_one`) without its own French takes its key's (i18next falls back to it); a key
      // read with a count may be translated by its French plural forms alone.
      const translated = (key: string) =>
        french.has(key) || french.has(key.replace(PLURAL_SUFFIX, '')) || french.has(`${key}_other`)
      expect([...defined].filter((key) => !translated(key))).toEqual([])
    })
  }
})
