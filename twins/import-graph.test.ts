import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * The package's modules as a graph of their static imports (type-only ones included): no edge leaves
 * the package (the site passes what the twins need as options). That the whole tree, this package
 * included, has no import circle: tests/unit/source-tree.test.ts.
 */
const root = import.meta.dirname
const IMPORT = /^\s*(?:import|export)\s(?:[^'"]*?from\s+)?['"]([^'"]+)['"]/gm

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : modules(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const graph = new Map(
  modules(root).map((file) => {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, target]) => target)
    return [file, targets.filter((target) => target.startsWith('.')).map((target) => resolve(dirname(file), target))]
  }),
)
const name = (file: string) => relative(root, file)

describe('the local twins package', () => {
  it('imports nothing from outside its folder but packages', () => {
    const outside = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => relative(root, target).startsWith('..')).map((target) => `${name(file)} → ${target}`),
    )
    expect(outside).toEqual([])
  })
})
