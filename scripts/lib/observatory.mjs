// Installs MDN HTTP Observatory's analyzer and grader (@mdn/mdn-http-observatory) for the security-header
// tests, apart from the project's dependencies: its install script downloads a certificate bundle and
// the HSTS preload list from the internet, which neither `npm install` nor the tests may depend on.
// Installed once into node_modules/.cache (reused while the version matches), scripts skipped; the
// preload list is left empty, so the grades hold no preload bonus.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const OBSERVATORY_VERSION = '1.4.8'

/** The folder holding node_modules/@mdn/mdn-http-observatory, or throws with npm's message. */
export async function installObservatory(dir = 'node_modules/.cache/mdn-http-observatory') {
  const root = resolve(dir)
  const installed = join(root, 'node_modules', '@mdn', 'mdn-http-observatory')
  const version = existsSync(join(installed, 'package.json')) ? JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version : null
  if (version !== OBSERVATORY_VERSION) {
    mkdirSync(root, { recursive: true })
    writeFileSync(join(root, 'package.json'), JSON.stringify({ private: true, description: 'MDN HTTP Observatory for the tests (scripts/lib/observatory.mjs)' }))
    try {
      await promisify(execFile)('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `@mdn/mdn-http-observatory@${OBSERVATORY_VERSION}`], {
        cwd: root,
        timeout: 300_000,
      })
    } catch (error) {
      throw new Error(`npm could not install @mdn/mdn-http-observatory: ${error.stderr || error.message}`)
    }
  }
  const preloadList = join(installed, 'conf', 'hsts-preload.json')
  if (!existsSync(preloadList)) writeFileSync(preloadList, '{}')
  return root
}
