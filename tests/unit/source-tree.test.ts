import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * The house rules a reader relies on, read from the tree itself: one room per question (the site in
 * app/, components/, lib/; how production answers in server/; the stand-ins in twins/; the commands in
 * scripts/), one meaning per file name, no import circle, no hand-written type sidecars, files short
 * enough to read, and a production server whose imports stay inside what the container image copies.
 */
const root = resolve(import.meta.dirname, '..', '..')
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/
const SKIPPED = new Set(['node_modules', '.next', '.git', 'test-results', '.data', '.sanity', 'bench-results'])
const MAX_LINES = 350

function files(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return SKIPPED.has(entry.name) || entry.name.startsWith('.next') ? [] : files(path)
    return [path]
  })
}
const rooms = ['app', 'components', 'lib', 'server', 'scripts', 'twins', 'schemas', 'studio', 'supabase', 'tests']
const sources = rooms
  .flatMap((room) => files(join(root, room)))
  .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
const name = (file: string) => relative(root, file)

// Imports as the bundler and Node resolve them: relative paths, the `@/` alias, the twins' package.
const IMPORT = /^\s*(?:import|export)\s(?:[^'"]*?from\s+)?['"]([^'"]+)['"]/gm
const twinsExports = JSON.parse(readFileSync(join(root, 'twins', 'package.json'), 'utf8')).exports as Record<
  string,
  string
>
function resolveImport(from: string, target: string): string | null {
  let base: string
  if (target.startsWith('.')) base = resolve(dirname(from), target)
  else if (target.startsWith('@/')) base = join(root, target.slice(2))
  else if (target.startsWith('@plume/twins')) {
    const entry = twinsExports[`.${target.slice('@plume/twins'.length)}`]
    if (!entry) return null
    base = join(root, 'twins', entry)
  } else return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}
const graph = new Map(
  sources.map((file) => {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, target]) => resolveImport(file, target))
    return [file, targets.filter((target): target is string => target !== null)]
  }),
)

describe('the source tree', () => {
  it('has no import circle', () => {
    const cycles: string[] = []
    const state = new Map<string, 'visiting' | 'done'>()
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(' → '))
        return
      }
      state.set(file, 'visiting')
      for (const target of graph.get(file) ?? []) visit(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
    expect(cycles).toEqual([])
  })

  it('gives each module of lib/, scripts/, server/ and twins/ a file name of its own', () => {
    const byName = new Map<string, string[]>()
    for (const file of ['lib', 'scripts', 'server', 'twins'].flatMap((room) => files(join(root, room)))) {
      if (!SOURCE.test(file)) continue
      const base = file.split('/').pop()!.replace(SOURCE, '')
      byName.set(base, [...(byName.get(base) ?? []), name(file)])
    }
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([])
  })

  it('has no hand-written type sidecars and no file over 350 lines', () => {
    expect(sources.filter((file) => file.endsWith('.d.mts')).map(name)).toEqual([])
    const long = sources
      .filter((file) => !file.endsWith('sanity.types.ts'))
      .map((file) => ({ file: name(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })

  it('keeps the production server within server/ and lib/security/, which the container image copies', () => {
    const reached = new Set<string>()
    const visit = (file: string) => {
      if (reached.has(file)) return
      reached.add(file)
      for (const target of graph.get(file) ?? []) visit(target)
    }
    visit(join(root, 'server', 'main.ts'))
    expect(reached.size).toBeGreaterThan(3)
    const outside = [...reached]
      .map(name)
      .filter((file) => !file.startsWith('server/') && !file.startsWith('lib/security/'))
    expect(outside).toEqual([])
    const copies = readFileSync(join(root, 'Dockerfile'), 'utf8').match(/^COPY\s/gm) ?? []
    expect(copies.length).toBeLessThanOrEqual(8)
  })

  it('keeps in lib/ only what the site runs: no module there is imported by scripts and tests alone', () => {
    // The site: its rooms and the configuration files at the root, which Next, Sanity and Node load.
    const siteRooms = ['app/', 'components/', 'lib/', 'schemas/', 'studio/', 'server/']
    const rootFiles = readdirSync(root)
      .filter((file) => SOURCE.test(file))
      .map((file) => join(root, file))
    const siteFiles = [...sources.filter((file) => siteRooms.some((room) => name(file).startsWith(room))), ...rootFiles]
    const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g
    const used = new Set<string>()
    for (const file of siteFiles) {
      const text = readFileSync(file, 'utf8')
      for (const [, target] of [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)]) {
        const resolved = resolveImport(file, target)
        if (resolved && resolved !== file) used.add(resolved)
      }
      // Loaded by path rather than imported: Next's cache handler, next-intl's request configuration.
      for (const [, path] of text.matchAll(/['"](\.\/lib\/[^'"]+|[\w-]+\.mjs)['"]/g))
        for (const candidate of sources) if (candidate.endsWith(path.replace(/^\.\//, '/'))) used.add(candidate)
    }
    const unused = sources.filter((file) => name(file).startsWith('lib/') && !/\.test\.tsx?$/.test(file))
    expect(unused.filter((file) => !used.has(file)).map(name)).toEqual([])
  })
})
