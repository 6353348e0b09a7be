import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { homedir, platform } from 'node:os'
import { join } from 'node:path'

/*
 * Where `npm run cert:trust` puts the local Content Lake's certificate (scripts/trust-certificate.ts), and
 * whether it is there: `npm start` says so when it is not, so that the editor learns the command
 * before the Studio cannot reach the Content Lake.
 */

export const NICKNAME = 'plume-local-content-lake'
export const SYSTEM_COPY = `/usr/local/share/ca-certificates/${NICKNAME}.crt`

export const has = (command: string) =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0

/** NSS databases: Chromium's shared one and every Firefox profile's. */
export function nssDatabases(): string[] {
  const found = []
  const chromium = join(homedir(), '.pki', 'nssdb')
  if (existsSync(chromium)) found.push(chromium)
  for (const root of [
    join(homedir(), '.mozilla', 'firefox'),
    join(homedir(), 'snap', 'firefox', 'common', '.mozilla', 'firefox'),
  ]) {
    if (!existsSync(root)) continue
    for (const profile of readdirSync(root))
      if (existsSync(join(root, profile, 'cert9.db'))) found.push(join(root, profile))
  }
  return found
}

/**
 * Whether the browsers here trust `certPath` as `npm run cert:trust` makes them: in every NSS database
 * (Linux, with certutil), or in the login keychain (macOS); false when there is no browser database
 * yet. Null when it cannot be told (no certutil to read the databases): nothing is said then.
 */
export function certificateTrusted(certPath: string): boolean | null {
  if (!existsSync(certPath)) return null
  if (platform() === 'darwin') {
    const check = spawnSync('security', ['verify-cert', '-c', certPath, '-p', 'ssl'], { stdio: 'ignore' })
    return check.error ? null : check.status === 0
  }
  const databases = nssDatabases()
  // No browser database yet: no browser here trusts it (Chromium and Firefox on Linux read only theirs).
  if (databases.length === 0) return false
  if (!has('certutil')) return null
  return databases.every(
    (database) =>
      spawnSync('certutil', ['-d', `sql:${database}`, '-L', '-n', NICKNAME], { stdio: 'ignore' }).status === 0,
  )
}
