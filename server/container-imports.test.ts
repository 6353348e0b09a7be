import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

/*
 * The container image holds Next's standalone output, server/ and lib/security/, nothing else of the
 * project: the server's modules may import only each other, lib/security/ (not policy-sources.ts,
 * which reads lib/backends.ts), Node's built-ins, `next` and the few of Next's own files listed in
 * NEXT_FILES (the standalone output holds every file Next's server requires). Checked on the source
 * (every import, type-only and dynamic ones included), then by Node itself loading server/main.ts by
 * type stripping.
 */

const root = resolve(import.meta.dirname, '..')
const SERVER = join(root, 'server')
const SECURITY = join(root, 'lib', 'security')
const IMPORT = /(?:^\s*(?:import|export)\s(?:[^'"]*?from\s+)?|\bimport\()\s*['"]([^'"]+)['"]/gm
const BUILTINS = new Set(builtinModules)
/** Next's files the server imports, and the file of Next's server that requires each (so that the
 *  standalone output's trace holds it): lib/security/request-cookies.ts reads cookies with them. */
const NEXT_FILES: Record<string, string> = {
  'next/dist/server/api-utils/get-cookie-parser.js': 'next/dist/shared/lib/router/utils/prepare-destination.js',
  'next/dist/compiled/@edge-runtime/cookies/index.js': 'next/dist/server/web/spec-extension/cookies.js',
}

/** Why `target`, imported by `file`, would be missing from the image (or null when it is there). */
function outsideTheImage(file: string, target: string): string | null {
  if (target.startsWith('node:') || BUILTINS.has(target) || target === 'next' || target in NEXT_FILES) return null
  if (!target.startsWith('.')) return 'a package other than next'
  if (!target.endsWith('.ts')) return 'a relative import without its .ts extension (Node needs it)'
  const path = resolve(dirname(file), target)
  if (path === join(SECURITY, 'policy-sources.ts')) return 'policy-sources.ts reads lib/backends.ts'
  if (dirname(path) !== SERVER && dirname(path) !== SECURITY) return 'a file outside server/ and lib/security/'
  return null
}

/** The server's own modules (not its tests), and every file they reach. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const pending = readdirSync(SERVER)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(SERVER, name))
  while (pending.length) {
    const file = pending.pop() as string
    if (graph.has(file)) continue
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, target]) => target)
    graph.set(file, targets)
    for (const target of targets)
      if (target.startsWith('.') && outsideTheImage(file, target) === null) pending.push(resolve(dirname(file), target))
  }
  return graph
}

describe('the production server’s imports (what its container image holds)', () => {
  it('stay within server/, lib/security/, Node and next', () => {
    const graph = importGraph()
    expect(graph.has(join(SERVER, 'main.ts'))).toBe(true)
    expect([...graph.keys()].map((file) => relative(root, file))).toContain('lib/security/content-security-policy.ts')
    const problems = [...graph].flatMap(([file, targets]) =>
      targets.flatMap((target) => {
        const problem = outsideTheImage(file, target)
        return problem ? [`${relative(root, file)} → ${target}: ${problem}`] : []
      }),
    )
    expect(problems).toEqual([])
    // Each of Next's own files it imports is one Next's server requires itself: the standalone output's
    // trace holds it. And none is listed that the server does not import.
    const nodeModules = join(root, 'node_modules')
    const imported = new Set([...graph.values()].flat())
    for (const [file, requiredBy] of Object.entries(NEXT_FILES)) {
      const requirer = join(nodeModules, requiredBy)
      const required = [...readFileSync(requirer, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map(([, target]) =>
        target.startsWith('.') ? relative(nodeModules, resolve(dirname(requirer), target)) : target,
      )
      expect([file, imported.has(file), required]).toEqual([
        file,
        true,
        expect.arrayContaining([file.replace(/(\/index)?\.js$/, '')]),
      ])
    }
  })

  it('the check itself refuses lib/backends.ts, zod, the twins and a path alias', () => {
    const file = join(SERVER, 'main.ts')
    for (const target of [
      '../lib/backends.ts',
      'zod',
      '@plume/twins/defaults',
      '@/lib/security/security-headers',
      '../lib/security/policy-sources.ts',
      './stage',
      'next/dist/server/lib/router-server.js',
    ]) {
      expect([target, outsideTheImage(file, target)]).not.toEqual([target, null])
    }
  })

  it('Node loads server/main.ts’s whole static graph by type stripping, and never lib/backends.ts', () => {
    // No build in this folder: main.ts stops at once, in a line naming the folder rather than a stack
    // trace, after every static import was loaded. Each module Node resolves on the way is recorded.
    const emptyBuild = mkdtempSync(join(tmpdir(), 'plume-no-build-'))
    const script = `
      import { registerHooks } from 'node:module'
      const seen = []
      registerHooks({ resolve(specifier, context, nextResolve) { const result = nextResolve(specifier, context); seen.push(result.url); return result } })
      process.on('exit', () => console.log(JSON.stringify(seen)))
      await import(${JSON.stringify(pathToFileURL(join(SERVER, 'main.ts')).href)})`
    try {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        env: { ...process.env, NEXT_DIST_DIR: emptyBuild },
        encoding: 'utf8',
      })
      expect([run.status, run.stderr]).toEqual([
        1,
        `[server] no build in ${emptyBuild}: build the site first (\`npm run build\`, or \`npm start\`, which ` +
          'builds and serves), or set NEXT_DIST_DIR to the folder that holds it.\n',
      ])
      const loaded = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as string[])
        .filter((url) => url.startsWith('file:'))
        .map((url) => relative(root, fileURLToPath(url)))
      expect(loaded).toEqual(
        expect.arrayContaining([
          'server/main.ts',
          'server/response-pipeline.ts',
          'server/intercept-response.ts',
          'lib/security/draft-access-cookie.ts',
        ]),
      )
      expect(
        loaded.filter(
          (path) =>
            !path.startsWith('server/') &&
            !path.startsWith('lib/security/') &&
            !Object.keys(NEXT_FILES).includes(path.replace(/^node_modules\//, '')),
        ),
      ).toEqual([])
      expect(loaded).not.toContain('lib/backends.ts')
    } finally {
      rmSync(emptyBuild, { recursive: true, force: true })
    }
  })
})
