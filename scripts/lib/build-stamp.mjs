import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Inputs whose change makes a production build stale.
const SOURCES = ['app', 'components', 'lib', 'local', 'messages', 'schemas', 'studio', 'public', 'package.json', 'package-lock.json', 'next.config.ts', 'proxy.ts', 'sanity.config.ts', 'sanity.cli.ts', 'postcss.config.mjs', 'tsconfig.json', 'scripts/build.mjs', 'scripts/compile-hints.mjs', 'scripts/lib/compile-hints.mjs', 'scripts/lib/first-load-scripts.mjs']

/** Paths and contents, not modification times: the build's own TypeGen step rewrites
 *  lib/sanity/sanity.types.ts (same content, new time) and a checkout touches every file it writes. */
function hashSources(hash, entry) {
  if (!existsSync(entry)) return
  if (statSync(entry).isDirectory()) {
    for (const child of readdirSync(entry).sort()) hashSources(hash, path.join(entry, child))
    return
  }
  hash.update(`${entry}\0`).update(readFileSync(entry)).update('\0')
}

/** What the build reads from its environment: the public variables (inlined into the pages), Sanity's
 *  server-side ones, the output folder and the mode. */
function buildEnv(env) {
  return Object.keys(env)
    .filter((key) => key.startsWith('NEXT_PUBLIC_') || key.startsWith('SANITY_') || key === 'NEXT_DIST_DIR' || key === 'NODE_ENV')
    .sort()
    .map((key) => [key, env[key]])
}

/** A fingerprint of everything a build depends on; take it before building (sources may change meanwhile). */
export function buildInputs(env = process.env) {
  const hash = createHash('sha256')
  for (const source of SOURCES) hashSources(hash, source)
  hash.update(JSON.stringify(buildEnv(env)))
  return hash.digest('hex')
}

const stampFile = (distDir) => path.join(distDir, 'plume-build-stamp.json')

/** True when distDir holds a complete build made from these sources with this environment. */
export function buildIsCurrent(distDir, env = process.env) {
  if (!existsSync(path.join(distDir, 'BUILD_ID')) || !existsSync(stampFile(distDir))) return false
  const stamp = JSON.parse(readFileSync(stampFile(distDir), 'utf8'))
  return stamp.inputs === buildInputs(env)
}

/** Before a build: a build that fails half-way must not pass for the last complete one. */
export function forgetBuild(distDir) {
  rmSync(stampFile(distDir), { force: true })
}

/** Marks distDir as built from `inputs` (buildInputs() taken before the build started). */
export function writeBuildStamp(distDir, inputs) {
  writeFileSync(stampFile(distDir), JSON.stringify({ inputs }))
}
