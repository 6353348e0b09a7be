// `npm run cert:trust` / `npm run cert:untrust`: trust (or stop trusting) the local Content Lake's
// certificate (.data/tls/cert.pem, made by the first `npm start`), printing every command it runs.
// It is a leaf certificate for localhost, local.localhost, 127.0.0.1 and ::1 only (not a CA): it
// cannot vouch for any other site. Where it goes:
//   - Chromium/Chrome on Linux, and Firefox: their NSS databases (~/.pki/nssdb, each Firefox profile)
//     with `certutil -t "P,,"` (a trusted server certificate), when certutil is installed
//     (Debian/Ubuntu: libnss3-tools). Browsers on Linux do not read the system store.
//   - Debian/Ubuntu system store (curl, wget, other tools): /usr/local/share/ca-certificates +
//     update-ca-certificates, through sudo.
//   - macOS: the login keychain, `security add-trusted-cert -r trustAsRoot -p ssl` (Chrome and Safari).
// `--dry-run` prints the commands without running them.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir, platform } from 'node:os'
import { join, resolve } from 'node:path'
import { has, NICKNAME, nssDatabases, SYSTEM_COPY } from './lib/certificate-trust.ts'

const args = process.argv.slice(2)
const remove = args.includes('--remove')
const dryRun = args.includes('--dry-run')
const certPath = resolve(args.find((arg) => !arg.startsWith('--')) ?? join('.data', 'tls', 'cert.pem'))

let failures = 0
function run(command: string, commandArgs: string[]) {
  console.log(`$ ${[command, ...commandArgs].map((arg) => (/[\s",]/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}`)
  if (dryRun) return true
  const result = spawnSync(command, commandArgs, { stdio: 'inherit' })
  if (result.status !== 0) failures++
  return result.status === 0
}

if (!remove && !existsSync(certPath)) {
  console.error(
    `No certificate at ${certPath}: start the local Content Lake once (npm start, or npm run sanity:local), then run this again.`,
  )
  process.exit(1)
}
console.log(
  `${remove ? 'Removing trust in' : 'Trusting'} ${certPath} (localhost, local.localhost, 127.0.0.1, ::1 only; not a CA)${dryRun ? ' — dry run' : ''}`,
)

if (platform() === 'darwin') {
  const keychain = join(homedir(), 'Library', 'Keychains', 'login.keychain-db')
  if (remove) run('security', ['delete-certificate', '-c', 'localhost', '-t', keychain])
  else run('security', ['add-trusted-cert', '-r', 'trustAsRoot', '-p', 'ssl', '-k', keychain, certPath])
} else {
  if (has('certutil')) {
    const databases = nssDatabases()
    if (databases.length === 0)
      console.log(
        'No browser certificate database found (~/.pki/nssdb, Firefox profiles): open Chromium or Firefox once, then run this again.',
      )
    for (const database of databases) {
      if (remove) run('certutil', ['-d', `sql:${database}`, '-D', '-n', NICKNAME])
      else run('certutil', ['-d', `sql:${database}`, '-A', '-t', 'P,,', '-n', NICKNAME, '-i', certPath])
    }
  } else {
    console.log(
      'certutil not found: browsers were not changed (Debian/Ubuntu: sudo apt install libnss3-tools, then run this again).',
    )
  }
  if (has('update-ca-certificates')) {
    if (remove) run('sudo', ['rm', '-f', SYSTEM_COPY])
    else run('sudo', ['cp', certPath, SYSTEM_COPY])
    run('sudo', ['update-ca-certificates', ...(remove ? ['--fresh'] : [])])
  } else {
    console.log('update-ca-certificates not found: the system store was not changed (not Debian/Ubuntu).')
  }
}
if (failures > 0) {
  console.error(`${failures} command(s) failed (above).`)
  process.exit(1)
}
console.log(
  dryRun
    ? 'Nothing was changed (dry run).'
    : `Done. Restart the browser${remove ? '' : ', then open https://localhost:54380/v1/ping: no warning'}.`,
)
