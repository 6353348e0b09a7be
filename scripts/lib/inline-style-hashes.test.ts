import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addInlineStyleHashes } from './inline-style-hashes.ts'

let dist: string
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true })
  writeFileSync(path.join(dist, file), text)
}
const policyOf = (file: string) =>
  (JSON.parse(readFileSync(path.join(dist, file), 'utf8')) as { headers: { headers: { value: string }[] }[] })
    .headers[0].headers[0].value
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const manifest = (policy: string) =>
  JSON.stringify({ headers: [{ source: '/:path*', headers: [{ key: 'Content-Security-Policy', value: policy }] }] })

beforeEach(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'style-hashes-'))
  write('server/app/fr.html', '<head><style data-precedence="next" data-href="/a.css">body{color:red}</style></head>')
  write('server/app/en/about.html', '<style>body{color:red}</style><style>.b{}</style>')
})
afterEach(() => rmSync(dist, { recursive: true, force: true }))

describe('the inlined stylesheets in the policy Next serves alone', () => {
  it('names each prerendered page’s <style> in style-src, in the build’s manifest and the standalone copy', () => {
    const site =
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self'; style-src-attr 'unsafe-inline'"
    write('routes-manifest.json', manifest(site))
    write(`standalone/${dist}/routes-manifest.json`, manifest(site))
    expect(addInlineStyleHashes(dist)).toEqual([hash('.b{}'), hash('body{color:red}')].sort())
    for (const file of ['routes-manifest.json', `standalone/${dist}/routes-manifest.json`])
      expect(policyOf(file)).toBe(
        `default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' ${[hash('.b{}'), hash('body{color:red}')].sort().join(' ')}; style-src-attr 'unsafe-inline'`,
      )
    // A second run (the build stamp reused) adds nothing twice.
    addInlineStyleHashes(dist)
    expect(policyOf('routes-manifest.json').match(/sha256-/g)).toHaveLength(2)
  })

  it('leaves a policy that allows inline styles already (the Studio’s) as it is', () => {
    const studio = "default-src 'none'; style-src 'self' 'unsafe-inline'"
    write('routes-manifest.json', manifest(studio))
    addInlineStyleHashes(dist)
    expect(policyOf('routes-manifest.json')).toBe(studio)
  })
})
