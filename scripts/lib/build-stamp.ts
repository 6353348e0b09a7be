import { createHash, type Hash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Inputs whose change makes a production build stale.
// lib/sanity/sanity.types.ts is left out: TypeGen writes it from the schemas and queries (inputs already),
// and a fresh clone has none until the first build writes it, after its inputs were fingerprinted.
const SOURCES = [
  ...['app', 'components', 'lib', 'messages', 'schemas', 'studio', 'public', 'instrumentation.ts'],
  ...['package.json', 'package-lock.json', 'next.config.ts', 'proxy.ts', 'sanity.config.ts', 'sanity.cli.ts'],
  ...['postcss.config.mjs', 'tsconfig.json', 'scripts/build.ts', 'scripts/lib/chunk-compile-hints.ts'],
  ...['scripts/lib/first-load-scripts.ts', 'scripts/lib/inline-style-hashes.ts', 'scripts/lib/prerendered-html.ts'],
  'scripts/lib/site-stylesheet.ts',
]
// The site's whole stylesheet and its address are written by the build from the sources above.
const GENERATED = new Set([
  path.join('lib', 'sanity', 'sanity.types.ts'),
  path.join('lib', 'site-stylesheet-href.ts'),
  path.join('public', 'styles'),
])

/** Paths and contents, not modification times: a checkout touches every file it writes. */
function hashSources(hash: Hash, entry: string) {
  if (!existsSync(entry) || GENERATED.has(entry)) return
  if (statSync(entry).isDirectory()) {
    for (const child of readdirSync(entry).sort()) hashSources(hash, path.join(entry, child))
    return
  }
  hash.update(`${entry}\0`).update(readFileSync(entry)).update('\0')
}

/** What the build reads from its environment: the public variables (inlined into the pages), Sanity's
 *  server-side ones, the output folder and the mode. Tokens and secrets are read at run time only (and
 *  a fresh local Content Lake makes new ones): they make no build stale. */
function buildEnv(env: NodeJS.ProcessEnv) {
  return Object.keys(env)
    .filter(
      (key) =>
        (key.startsWith('NEXT_PUBLIC_') ||
          key.startsWith('SANITY_') ||
          key === 'NEXT_DIST_DIR' ||
          key === 'NODE_ENV') &&
        !/TOKEN|SECRET/.test(key),
    )
    .sort()
    .map((key) => [key, env[key]])
}

/** A fingerprint of everything a build depends on; take it before building (sources may change meanwhile). */
export function buildInputs(env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256')
  for (const source of SOURCES) hashSources(hash, source)
  hash.update(JSON.stringify(buildEnv(env)))
  return hash.digest('hex')
}

const stampFile = (distDir: string) => path.join(distDir, 'plume-build-stamp.json')

/** True when distDir holds a complete build made from these sources with this environment. */
export function buildIsCurrent(distDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(path.join(distDir, 'BUILD_ID')) || !existsSync(stampFile(distDir))) return false
  const stamp = JSON.parse(readFileSync(stampFile(distDir), 'utf8'))
  return stamp.inputs === buildInputs(env)
}

/** Before a build: a build that fails half-way must not pass for the last complete one. */
export function forgetBuild(distDir: string) {
  rmSync(stampFile(distDir), { force: true })
}

/** Marks distDir as built from `inputs` (buildInputs() taken before the build started). */
export function writeBuildStamp(distDir: string, inputs: string) {
  writeFileSync(stampFile(distDir), JSON.stringify({ inputs }))
}
