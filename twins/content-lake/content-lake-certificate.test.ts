import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startContentLake, type ContentLake } from './start-content-lake.ts'
import { CERTIFICATE_DAYS, certificateNames, loadOrCreateCertificate } from './tls.ts'

/*
 * The local Content Lake's certificate (issue #20: it was a CA for any name, valid 825 days, that
 * the README asked people to trust system-wide): a leaf for the local names only, 397 days at
 * most, kept apart from the data and renewed before its end.
 */

const DAY_MS = 24 * 3600 * 1000
let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'lake-tls-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('the local certificate', () => {
  it('is a leaf (CA:FALSE) for localhost, local.localhost, 127.0.0.1 and ::1 only, valid 397 days at most', async () => {
    const { cert } = await loadOrCreateCertificate(join(folder, 'a'))
    const x509 = new X509Certificate(cert)
    expect(x509.ca).toBe(false)
    expect(x509.subjectAltName).toBe(
      'DNS:localhost, DNS:local.localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    )
    expect(certificateNames()).toBe(x509.subjectAltName)
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']) // serverAuth only
    const days = (new Date(x509.validTo).getTime() - new Date(x509.validFrom).getTime()) / DAY_MS
    expect(days).toBeLessThanOrEqual(CERTIFICATE_DAYS)
    expect(CERTIFICATE_DAYS).toBeLessThanOrEqual(397)
    // It cannot have issued a certificate for another site.
    const other = await generate([{ name: 'commonName', value: 'example.com' }], { keyType: 'ec', algorithm: 'sha256' })
    expect(new X509Certificate(other.cert).checkIssued(x509)).toBe(false)
  })

  it('is kept across starts, and made anew near its end or when it is an old CA certificate', async () => {
    const dir = join(folder, 'b')
    const first = await loadOrCreateCertificate(dir)
    expect((await loadOrCreateCertificate(dir)).cert).toBe(first.cert)
    const nearEnd = new Date(Date.now() + (CERTIFICATE_DAYS - 20) * DAY_MS)
    const renewed = await loadOrCreateCertificate(dir, nearEnd)
    expect(renewed.cert).not.toBe(first.cert)
    expect(readFileSync(join(dir, 'cert.pem'), 'utf8')).toBe(renewed.cert)
    const ca = await generate([{ name: 'commonName', value: 'old' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'basicConstraints', cA: true }],
    })
    writeFileSync(join(dir, 'cert.pem'), ca.cert)
    writeFileSync(join(dir, 'key.pem'), ca.private)
    expect(new X509Certificate((await loadOrCreateCertificate(dir)).cert).ca).toBe(false)
  })

  describe('served by the Content Lake', () => {
    let lake: ContentLake
    const dataDir = () => join(folder, 'data')
    beforeAll(async () => {
      lake = await startContentLake({
        port: 0,
        dataDir: dataDir(),
        tlsDir: join(folder, 'tls'),
        webhookUrl: null,
        log: () => {},
      })
    })
    afterAll(() => lake?.close())

    it('lives outside the data folder and verifies when trusted as is (no CA needed)', async () => {
      expect(lake.certPath).toBe(join(folder, 'tls', 'cert.pem'))
      const ca = readFileSync(lake.certPath, 'utf8')
      const status = await new Promise<number>((resolve, reject) => {
        get(`https://localhost:${lake.port}/v1/ping`, { ca }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        }).on('error', reject)
      })
      expect(status).toBe(200)
    })
  })
})
