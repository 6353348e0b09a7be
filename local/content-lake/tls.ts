import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { LOCAL_PROJECT_ID } from './defaults.ts'

export type TlsFiles = { key: string; cert: string; certPath: string }

/** Names the certificate covers: the API host the Studio uses and the project subdomain @sanity/sdk calls. */
const HOSTS = ['localhost', `${LOCAL_PROJECT_ID}.localhost`]

/**
 * A self-signed certificate for the local Content Lake, made once and kept in the data folder. The
 * Studio needs HTTP/2 (its listeners take all six HTTP/1.1 connections Chromium allows per host), and
 * browsers speak HTTP/2 only over TLS. The README says how to trust it (`cert.pem`).
 */
export async function loadOrCreateCertificate(folder: string | undefined): Promise<TlsFiles> {
  const certPath = folder ? join(folder, 'cert.pem') : ''
  const keyPath = folder ? join(folder, 'key.pem') : ''
  if (folder && existsSync(certPath) && existsSync(keyPath)) {
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath }
  }
  const notBeforeDate = new Date(Date.now() - 60_000)
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 24 * 3600 * 1000) // browsers' maximum
  const pems = await generate([{ name: 'commonName', value: 'Plume & Cap local Content Lake' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      // A CA certificate that is also the server's: trusting this one file is enough (README).
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...HOSTS.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }, { type: 7 as const, ip: '::1' }],
      },
    ],
  })
  if (folder) {
    mkdirSync(folder, { recursive: true })
    writeFileSync(keyPath, pems.private, { mode: 0o600 })
    writeFileSync(certPath, pems.cert)
  }
  return { key: pems.private, cert: pems.cert, certPath }
}
