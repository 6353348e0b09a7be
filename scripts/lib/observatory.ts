// MDN HTTP Observatory's analyzer and grader (@mdn/mdn-http-observatory) for the security-header tests,
// installed apart from the project's dependencies (scripts/lib/install-apart.ts): its install script
// downloads a certificate bundle and the HSTS preload list from the internet, which neither
// `npm install` nor the tests may depend on. With scripts skipped, the preload list is left empty, so
// the grades hold no preload bonus.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installApart } from './install-apart.ts'

export const OBSERVATORY_VERSION = '1.4.8'

/** The folder holding node_modules/@mdn/mdn-http-observatory, or throws with npm's message. */
export async function installObservatory(dir = 'node_modules/.cache/mdn-http-observatory'): Promise<string> {
  const root = await installApart('@mdn/mdn-http-observatory', OBSERVATORY_VERSION, dir)
  const preloadList = join(root, 'node_modules', '@mdn', 'mdn-http-observatory', 'conf', 'hsts-preload.json')
  if (!existsSync(preloadList)) writeFileSync(preloadList, '{}')
  return root
}
