import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Inputs whose change makes a production build stale.
const SOURCES = ['app', 'components', 'lib', 'local', 'messages', 'schemas', 'studio', 'public', 'package.json', 'package-lock.json', 'next.config.ts', 'proxy.ts', 'sanity.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'scripts/lib/compile-hints.mjs', 'scripts/lib/first-load-scripts.mjs']

function newestMtime(entry) {
  if (!existsSync(entry)) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

/** Public variables are inlined into the build, so a different value also calls for a rebuild. */
function envFingerprint() {
  const keys = Object.keys(process.env).filter((key) => key.startsWith('NEXT_PUBLIC_') || key.startsWith('SANITY_')).sort()
  return createHash('sha256').update(JSON.stringify(keys.map((key) => [key, process.env[key]]))).digest('hex')
}

const stampFile = (distDir) => path.join(distDir, 'plume-build-stamp.json')

export function buildIsCurrent(distDir) {
  if (!existsSync(path.join(distDir, 'BUILD_ID')) || !existsSync(stampFile(distDir))) return false
  const stamp = JSON.parse(readFileSync(stampFile(distDir), 'utf8'))
  return stamp.env === envFingerprint() && Math.max(...SOURCES.map(newestMtime)) <= stamp.builtAt
}

export function writeBuildStamp(distDir, startedAt) {
  writeFileSync(stampFile(distDir), JSON.stringify({ env: envFingerprint(), builtAt: startedAt }))
}
