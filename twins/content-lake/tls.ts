import { X509Certificate, createPrivateKey } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { LOCAL_PROJECT_ID } from './content-lake-settings.ts'

export type TlsFiles = { key: string; cert: string; certPath: string }

/** Names the certificate covers: the API host the Studio uses and the project subdomain @sanity/sdk calls. */
export const CERTIFICATE_HOSTS = ['localhost', `${LOCAL_PROJECT_ID}.localhost`]
export const CERTIFICATE_IPS = ['127.0.0.1', '::1']
/** The longest validity browsers accept for a server certificate (CA/Browser Forum, 397 days). */
export const CERTIFICATE_DAYS = 397
/** A certificate with less left than this is replaced at start. */
export const RENEW_BEFORE_DAYS = 30

const DAY_MS = 24 * 3600 * 1000

/** The subjectAltName list as node:crypto's X509Certificate spells it. */
export function certificateNames(): string {
  const ips = CERTIFICATE_IPS.map((ip) => (ip === '::1' ? '0:0:0:0:0:0:0:1' : ip))
  return [...CERTIFICATE_HOSTS.map((host) => `DNS:${host}`), ...ips.map((ip) => `IP Address:${ip}`)].join(', ')
}

/**
 * The local Content Lake's TLS certificate. The Studio needs HTTP/2 (its listeners take all six
 * HTTP/1.1 connections Chromium allows per host), and browsers speak HTTP/2 only over TLS.
 *
 * It is a self-signed *leaf* certificate (issue #20: it used to be a CA, which once trusted could
 * vouch for any site): CA:FALSE, no keyCertSign, valid for the local names and addresses only, for
 * 397 days. It is kept in `folder` — outside the dataset's folder, so resetting the content keeps
 * it trusted — and made anew at start when missing, near its end, or not of this kind (an older
 * CA certificate). `npm run cert:trust` trusts it (README).
 */
export async function loadOrCreateCertificate(folder: string | undefined, now = new Date()): Promise<TlsFiles> {
  const certPath = folder ? join(folder, 'cert.pem') : ''
  const keyPath = folder ? join(folder, 'key.pem') : ''
  if (folder && existsSync(certPath) && existsSync(keyPath)) {
    const saved = { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath }
    if (isCurrent(saved, now)) return saved
  }
  const notBeforeDate = new Date(now.getTime() - 60_000)
  const notAfterDate = new Date(notBeforeDate.getTime() + CERTIFICATE_DAYS * DAY_MS)
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...CERTIFICATE_HOSTS.map((value) => ({ type: 2 as const, value })),
          ...CERTIFICATE_IPS.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  })
  if (folder) {
    mkdirSync(folder, { recursive: true })
    // Two servers starting at once may both make one: each file is replaced whole (rename), and a
    // key that does not match its certificate is made anew next start (isCurrent).
    writeFileSync(`${keyPath}.tmp`, pems.private, { mode: 0o600 })
    writeFileSync(`${certPath}.tmp`, pems.cert)
    renameSync(`${keyPath}.tmp`, keyPath)
    renameSync(`${certPath}.tmp`, certPath)
  }
  return { key: pems.private, cert: pems.cert, certPath }
}

/** A saved certificate is kept if it is a leaf for exactly our names, matches its key and has a month left. */
function isCurrent(files: TlsFiles, now: Date): boolean {
  try {
    const x509 = new X509Certificate(files.cert)
    if (x509.ca) return false
    if (!x509.checkPrivateKey(createPrivateKey(files.key))) return false
    if (new Date(x509.validTo).getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) return false
    return x509.subjectAltName === certificateNames()
  } catch {
    return false
  }
}
