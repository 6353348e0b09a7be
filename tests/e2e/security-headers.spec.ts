import { expect, test } from './fixtures'
import { grade, gradeOf } from './observatory'
import { PUBLIC_PATHS, localized } from './public-routes'

/*
 * Every kind of response the site sends, graded by MDN HTTP Observatory's own code (observatory.ts) as
 * served behind a TLS front: A+ with a score of at least 120, before any HSTS-preload bonus.
 */

test('every kind of response scores A+ (≥ 120) on MDN HTTP Observatory’s grader', async ({ request, baseURL }) => {
  test.setTimeout(120_000)
  const home = await (await request.get('/')).text()
  const asset = (pattern: RegExp) => home.match(pattern)?.[1]
  const script = asset(/<script src="(\/_next\/static\/[^"]+\.js)"/)
  // Inlined into the page (next.config.ts, inlineCss), and still served as a file to client-side navigations.
  // (One <style> may hold several files: its data-href lists them.)
  const stylesheet = asset(/<style data-precedence="next" data-href="(\/_next\/static\/[^" ]+\.css)/)
  // The whole stylesheet, linked below the first screen (components/layout/site-stylesheet.tsx).
  const siteStylesheet = asset(/<link rel="stylesheet" href="(\/styles\/site\.[\w-]+\.css)"/)
  expect(script, 'a script of the home page').toBeTruthy()
  expect(stylesheet, 'the stylesheet of the home page, inlined').toBeTruthy()
  expect(siteStylesheet, 'the whole stylesheet, linked by the home page').toBeTruthy()

  const targets: { path: string; status: number; method?: 'POST' }[] = [
    ...PUBLIC_PATHS.flatMap((path) => [localized(path, 'fr'), localized(path, 'en')]).map((path) => ({
      path,
      status: 200,
    })),
    { path: '/cette-page-n-existe-pas', status: 404 },
    { path: '/en/this-page-does-not-exist', status: 404 },
    { path: '/admin-panel-2024', status: 200 },
    { path: '/studio', status: 200 },
    { path: '/studio/presentation', status: 200 },
    { path: '/api/draft-mode/enable', status: 401 },
    { path: '/api/revalidate', status: 401, method: 'POST' },
    { path: '/share-image.png', status: 200 },
    { path: '/sitemap.xml', status: 200 },
    { path: '/robots.txt', status: 200 },
    { path: '/icon.svg', status: 200 },
    { path: script!, status: 200 },
    { path: stylesheet!, status: 200 },
    { path: siteStylesheet!, status: 200 },
    { path: '/%ff', status: 400 }, // answered by server/http-server.ts itself
  ]
  const below: string[] = []
  const scores: string[] = []
  for (const { path, status, method } of targets) {
    const { response, result } = await gradeOf(request, baseURL!, path, method)
    expect(response.status, path).toBe(status)
    scores.push(`${path} ${result.grade} ${result.score}`)
    const lost = Object.entries(result.tests).filter(([, test]) => test.modifier < 0 || !test.pass)
    if (result.grade !== 'A+' || result.score < 120)
      below.push(
        `${path}: ${result.grade} ${result.score} (${lost.map(([name, test]) => `${name} ${test.result} ${test.modifier}`).join(', ')})`,
      )
  }
  test.info().annotations.push({ type: 'Observatory', description: scores.join('; ') })
  expect(below).toEqual([])
})

test('the grader is the real one: the headers the site sent before this policy score B+ (80)', async () => {
  // Stop 16's headers, as the issue measured them: no script restriction in the policy.
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'SAMEORIGIN',
    'content-security-policy': "frame-ancestors 'self'; base-uri 'self'; object-src 'none'",
  }
  const page = { status: 200, headers, body: '<!doctype html><title>x</title><script>1</script>' }
  const result = await grade(new URL('https://example.test/'), page, page)
  expect([result.grade, result.score]).toEqual(['B+', 80])
  expect(result.tests['content-security-policy'].result).toBe('csp-implemented-with-unsafe-inline')
})

test('HTML responses name exactly their inline scripts; a 304 keeps the stored policy', async ({ request }) => {
  const response = await request.get('/en/about')
  const html = await response.text()
  // Still a static page, served from Next's cache: no per-request rendering for a nonce.
  expect(response.headers()['x-nextjs-cache']).toMatch(/HIT|STALE/)
  const policy = response.headers()['content-security-policy']
  // Executable inline scripts: no src, no data type (JSON-LD is not run, so it needs no hash).
  const inline = [...html.matchAll(/<script((?:\s+[a-z-]+(?:="[^"]*")?)*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\b(src|type)=/.test(attributes))
    .map(([, , body]) => body)
  expect(inline.length).toBeGreaterThan(2)
  const { createHash } = await import('node:crypto')
  const hashes = policy.match(/script-src [^;]+/)![0].match(/'sha256-[^']+'/g)!
  for (const body of inline) expect(hashes).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`)
  expect(hashes).toHaveLength(new Set(inline).size)
  expect(policy).not.toContain("'unsafe-inline'")
  expect(policy).not.toContain("'unsafe-eval'")

  const etag = response.headers().etag
  expect(etag).toBeTruthy()
  const revalidated = await request.get('/en/about', { headers: { 'If-None-Match': etag } })
  expect(revalidated.status()).toBe(304)
  expect(revalidated.headers()['content-security-policy']).toBeUndefined()
})
