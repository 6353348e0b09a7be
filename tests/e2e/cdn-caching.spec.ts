import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { PUBLIC_PATHS, localized } from './public-routes'
import { createPreviewSecret } from './studio-kit'

/*
 * What a CDN in front of `npm start`'s server may keep, and that what it keeps stays right: public
 * pages carry a short s-maxage with stale-while-revalidate; each page's policy names exactly the inline
 * scripts of the body it came with, whatever the encoding (Vary, ETag per representation); draft mode,
 * the inbox and the API are never kept, and Next's draft-mode cookie alone changes nothing.
 */

const inlineScriptHashes = (html: string) =>
  new Set(
    [...html.matchAll(/<script((?:\s+[a-z-]+(?:="[^"]*")?)*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/\b(src|type)=/.test(attributes))
      .map(([, , body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`),
  )
const policyHashes = (policy: string) => new Set(policy.match(/script-src [^;]+/)?.[0].match(/'sha256-[^']+'/g) ?? [])
const listed = (header: string | undefined) => (header ?? '').split(',').map((value) => value.trim().toLowerCase())

test('public pages: a CDN keeps them briefly, and each encoding’s policy names exactly its body’s scripts', async ({
  request,
}) => {
  test.setTimeout(90_000)
  for (const path of PUBLIC_PATHS.flatMap((path) => [localized(path, 'fr'), localized(path, 'en')])) {
    const seen: { etag: string; body: string; policy: string }[] = []
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await request.get(path, { headers: { 'Accept-Encoding': encoding } })
      expect(response.status(), path).toBe(200)
      const headers = response.headers()
      expect(headers['content-encoding'] ?? 'identity', `${path} ${encoding}`).toBe(encoding)
      const cacheControl = listed(headers['cache-control'])
      expect(cacheControl, path).toContain('public')
      expect(
        Number(cacheControl.find((value) => value.startsWith('s-maxage='))?.split('=')[1]),
        path,
      ).toBeLessThanOrEqual(300)
      expect(
        Number(cacheControl.find((value) => value.startsWith('stale-while-revalidate='))?.split('=')[1]),
        path,
      ).toBeGreaterThan(0)
      expect(listed(headers.vary), path).toContain('accept-encoding')
      const body = await response.text()
      expect(policyHashes(headers['content-security-policy']), `${path} ${encoding}`).toEqual(inlineScriptHashes(body))
      seen.push({ etag: headers.etag, body, policy: headers['content-security-policy'] })
    }
    // One body, one policy; a compressed representation has its own (weak) validator.
    expect(new Set(seen.map(({ body }) => body)).size, path).toBe(1)
    expect(new Set(seen.map(({ policy }) => policy)).size, path).toBe(1)
    expect(seen[0].etag, path).toBe(`W/${seen[2].etag}`)
    expect(seen[2].etag, path).toMatch(/^"/)
    // Revalidating the compressed copy still answers 304.
    const revalidated = await request.get(path, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': seen[0].etag } })
    expect(revalidated.status(), path).toBe(304)
  }
})

test('draft mode, the inbox and the API are never kept by a browser or a CDN (private, no-store)', async ({
  browser,
  request,
  baseURL,
}) => {
  // An editor's session, opened as the Presentation tool opens it (draft-mode.spec.ts tests how).
  const editor = await browser.newContext()
  const enable = await editor.request.get(
    `/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/`,
    { maxRedirects: 0 },
  )
  expect(enable.status()).toBe(307)
  const responses = [
    ['/ in draft mode', await editor.request.get('/')],
    ['/en/about in draft mode', await editor.request.get('/en/about')],
    ['the inbox', await request.get('/admin-panel-2024')],
    ['POST /api/revalidate', await request.post('/api/revalidate', { data: {} })],
    ['/api/draft-mode/enable', await request.get('/api/draft-mode/enable', { maxRedirects: 0 })],
    ['/api/draft-mode/disable', await request.get('/api/draft-mode/disable', { maxRedirects: 0 })],
  ] as const
  for (const [what, response] of responses) {
    const cacheControl = listed(response.headers()['cache-control'])
    expect([what, cacheControl.includes('private'), cacheControl.includes('no-store')]).toEqual([what, true, true])
  }
  await editor.close()
})

test('a bypass cookie without draft access gets the public page and the visitors’ policy, whoever’s build it names', async ({
  request,
}) => {
  // The server lets Next's draft-mode cookie through only beside a valid draft-access cookie
  // (server/draft-gate.ts): this build's id alone is the value anyone once given it keeps.
  const { previewModeId } = JSON.parse(
    readFileSync(join(process.env.NEXT_DIST_DIR ?? '.next', 'prerender-manifest.json'), 'utf8'),
  ).preview
  for (const bypass of ['forged', previewModeId]) {
    const response = await request.get('/en/about', { headers: { Cookie: `__prerender_bypass=${bypass}` } })
    const policy = response.headers()['content-security-policy']
    expect(policy).not.toContain("'unsafe-inline'")
    expect(policyHashes(policy)).toEqual(inlineScriptHashes(await response.text()))
    expect(listed(response.headers()['cache-control'])).toContain('public')
  }
})
