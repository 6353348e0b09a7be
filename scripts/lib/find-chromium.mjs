import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']

/** Flags for Chromium on a sandboxed, network-less machine (no background traffic, no GPU). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

function found() {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  return CANDIDATES.find((candidate) => existsSync(candidate))
}

/**
 * Path of a Chromium to drive with Playwright. Playwright's own browser download cannot work
 * offline, so we use Debian's package, installing it when missing and we are allowed to (root + apt).
 */
export function findChromium({ install = true } = {}) {
  const existing = found()
  if (existing) return existing
  const canInstall = install && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canInstall) {
    throw new Error(
      'Chromium was not found. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    )
  }
  console.log('[chromium] not found: installing Debian\'s chromium package (apt-get)…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
  const installed = found()
  if (!installed) throw new Error('apt-get installed chromium but no binary was found at /usr/bin/chromium.')
  return installed
}
