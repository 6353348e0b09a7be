import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/**
 * Installs one of Debian's packages when we may (root, apt): what the tests drive and the npm registry
 * cannot give (Chromium, Redis). False when it could not; the caller says what to install by hand.
 */
export function installDebianPackage(name: string, tag = name): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false
  console.log(`[${tag}] not found: installing Debian's ${name} package (apt-get)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    execFileSync('apt-get', ['install', '-y', '-qq', name], { stdio: 'inherit', env })
    return true
  } catch (error) {
    console.error(`[${tag}] apt-get could not install ${name}: ${(error as Error).message}`)
    return false
  }
}
