// Tools that one check or one benchmark needs, installed apart from the project's dependencies into a
// folder of node_modules/.cache of their own, on first use, and reused while the version matches.
// They stay out of package.json for what they would cost everyone else: MDN HTTP Observatory's install
// script downloads from the internet; Lighthouse, for one benchmark, brings some 90 packages and 10,000
// files (Sentry, OpenTelemetry, Puppeteer), an eighth of every `npm install`. Install scripts are
// skipped; npm's lock file does not cover these, so each is pinned to an exact version.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

/**
 * Installs `name@version` into `dir` unless that version is there already; resolves with `dir`'s
 * absolute path, or throws with npm's message.
 */
export async function installApart(name: string, version: string, dir: string): Promise<string> {
  const root = resolve(dir)
  const manifest = join(root, 'node_modules', name, 'package.json')
  const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : null
  if (installed === version) return root
  mkdirSync(root, { recursive: true })
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ private: true, description: `${name} for one check or benchmark (scripts/lib/install-apart.ts)` }),
  )
  try {
    await promisify(execFile)(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${name}@${version}`],
      { cwd: root, timeout: 300_000 },
    )
  } catch (error) {
    const { stderr, message } = error as Error & { stderr?: string }
    throw new Error(`npm could not install ${name}@${version}: ${stderr || message}`)
  }
  return root
}

/** The module `specifier` as resolved from an installed-apart folder `root` (its package exports). */
export function importFrom<Module = unknown>(root: string, specifier: string): Promise<Module> {
  return import(pathToFileURL(createRequire(join(root, 'package.json')).resolve(specifier)).href)
}
