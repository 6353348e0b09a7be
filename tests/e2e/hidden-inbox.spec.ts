import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'

/*
 * The inbox is hidden (issue #20): nothing a visitor can fetch may name its path. A crawler starts
 * where a visitor or a bot would, follows every same-origin URL it finds in pages, RSC payloads,
 * scripts, styles, manifests, the sitemap, robots.txt and redirects, and searches every body and
 * every response header for the path.
 */

const INBOX = 'admin-panel-2024'
/** Well above what the site has (some 300 URLs); the crawl must end before it, or it is not a full crawl. */
const MAX_REQUESTS = 1500
const PARALLEL = 6

/** The RSC requests the client router makes for a page: navigation, prefetch, and segment prefetch. */
const RSC_VARIANTS: Record<string, string>[] = [
  { RSC: '1' },
  { RSC: '1', 'Next-Router-Prefetch': '1' },
  { RSC: '1', 'Next-Router-Prefetch': '1', 'Next-Router-Segment-Prefetch': '/_tree' },
]

/** Same-origin URLs a response refers to: HTML attributes and srcset, RSC hrefs, CSS url(), chunk paths, absolute URLs. */
function referencedUrls(body: string, type: string, base: string): string[] {
  const found: string[] = []
  const collect = (pattern: RegExp) => {
    for (const match of body.matchAll(pattern)) found.push(match[1])
  }
  if (/html|xml|svg/.test(type)) {
    collect(/\b(?:href|src|action|poster)\s*=\s*"([^"]*)"/g)
    collect(/\b(?:href|src|action|poster)\s*=\s*'([^']*)'/g)
    for (const match of body.matchAll(/\bsrcset\s*=\s*"([^"]*)"/g))
      for (const candidate of match[1].split(',')) found.push(candidate.trim().split(/\s+/)[0])
  }
  // React Server Component payloads, on their own or inlined in the HTML (there with escaped quotes).
  if (/html|x-component/.test(type)) collect(/\\?"(?:href|src)\\?"\s*:\s*\\?"(\/[^"\\]*)/g)
  if (/css/.test(type)) collect(/url\(\s*['"]?([^'")\s]+)/g)
  // Chunks name each other as "static/chunks/…" (Turbopack's runtime) or "/_next/static/…".
  collect(/((?:\/_next\/)?static\/(?:chunks|media|css)\/[\w.~-]+\.(?:js|css|woff2?|svg|png|jpe?g|webp|avif))/g)
  collect(/(\/_next\/static\/[\w-]+\/_[\w]+Manifest\.js)/g)
  // Canonical, alternates, og:image, the sitemap's <loc>, robots' Sitemap: absolute URLs.
  collect(/(https?:\/\/[^\s"'<>\\)]+)/g)
  const origin = new URL(base).origin
  const urls: string[] = []
  for (const raw of found) {
    const value = raw.replace(/&amp;/g, '&')
    let url: URL
    try {
      url = new URL(/^static\//.test(value) ? `/_next/${value}` : value, base)
    } catch {
      continue
    }
    if (url.origin !== origin) continue
    urls.push(url.pathname + url.search)
  }
  return urls
}

type Fetched = { key: string; status: number; type: string; text: string }

async function fetchOne(
  request: APIRequestContext,
  path: string,
  headers: Record<string, string>,
): Promise<Fetched & { headers: Record<string, string> }> {
  const response = await request.get(path, { headers, maxRedirects: 0 })
  const responseHeaders = response.headers()
  const text = (await response.body()).toString('latin1')
  return {
    key: `${path} ${JSON.stringify(headers)}`,
    status: response.status(),
    type: responseHeaders['content-type'] ?? '',
    text,
    headers: responseHeaders,
  }
}

test('no public response names the inbox: pages, RSC payloads, scripts, manifests, sitemap, robots, redirects, headers', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(240_000)
  const buildId = readFileSync(join(process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'), 'utf8').trim()
  const start = [
    '/',
    '/en',
    '/sitemap.xml',
    '/robots.txt',
    '/cette-page-n-existe-pas',
    '/en/this-page-does-not-exist',
    '/linkedin-services/deeper/path',
    '/fr/contact',
    '/studio',
    `/_next/static/${buildId}/_buildManifest.js`,
    `/_next/static/${buildId}/_ssgManifest.js`,
    `/_next/static/${buildId}/_clientMiddlewareManifest.js`,
  ]
  const queued = new Set<string>()
  const queue: { path: string; headers: Record<string, string> }[] = []
  const enqueue = (path: string, headers: Record<string, string> = {}) => {
    const key = `${path} ${JSON.stringify(headers)}`
    if (queued.has(key)) return
    queued.add(key)
    queue.push({ path, headers })
  }
  for (const path of start) enqueue(path)

  const leaks: string[] = []
  const seen: Fetched[] = []
  while (queue.length > 0 && seen.length < MAX_REQUESTS) {
    const batch = queue.splice(0, PARALLEL)
    const results = await Promise.all(batch.map(({ path, headers }) => fetchOne(request, path, headers)))
    for (const [i, result] of results.entries()) {
      seen.push(result)
      const at = result.text.indexOf(INBOX)
      if (at >= 0)
        leaks.push(
          `${result.key}: body «…${result.text
            .slice(Math.max(0, at - 60), at + 30)
            .replace(/\\/g, '')
            .replace(/\s+/g, ' ')}…»`,
        )
      for (const [name, value] of Object.entries(result.headers))
        if (`${name}: ${value}`.includes(INBOX)) leaks.push(`${result.key}: header ${name}`)
      const { path, headers } = batch[i]
      // Redirects are followed with the same headers: an RSC request is sent on to its `?_rsc=` URL.
      if (result.headers.location) {
        const target = new URL(result.headers.location, `${baseURL}${path}`)
        if (target.origin === new URL(baseURL!).origin) enqueue(target.pathname + target.search, headers)
      }
      if (Object.keys(headers).length > 0) continue
      // A page's links, scripts and pictures; and the RSC payloads the client router would fetch for it.
      for (const url of referencedUrls(result.text, result.type, `${baseURL}${path}`)) enqueue(url)
      if (result.type.startsWith('text/html')) for (const variant of RSC_VARIANTS) enqueue(path, variant)
    }
  }

  expect(queue, `the crawl stopped at ${MAX_REQUESTS} requests`).toEqual([])
  // The crawl reached what it must have: scripts, RSC payloads, the build manifest, the sitemap's pages.
  expect(seen.filter((item) => /^\/_next\/static\/chunks\/.+\.js /.test(item.key)).length).toBeGreaterThan(20)
  expect(seen.filter((item) => item.type.startsWith('text/x-component')).length).toBeGreaterThan(20)
  expect(seen.some((item) => item.key.startsWith('/en/legal-notice ') && item.status === 200)).toBe(true)
  expect(
    seen.some((item) => item.key.startsWith(`/_next/static/${buildId}/_buildManifest.js `) && item.status === 200),
  ).toBe(true)
  expect(leaks).toEqual([])
})

test('routing around the hidden inbox: French unprefixed, /fr redirects, English, Studio, API, 404s', async ({
  request,
}) => {
  const inbox = await request.get(`/${INBOX}`, { maxRedirects: 0 })
  expect(inbox.status()).toBe(200)
  expect(inbox.headers()['x-robots-tag']).toBe('noindex, nofollow')
  expect(inbox.headers()['cache-control']).toBe('private, no-store')
  expect(await inbox.text()).toContain('<meta name="robots" content="noindex, nofollow, nocache"/>')

  for (const [from, to] of [
    ['/fr', '/'],
    ['/fr/contact', '/contact'],
    [`/fr/${INBOX}`, `/${INBOX}`],
  ]) {
    const response = await request.get(from, { maxRedirects: 0 })
    expect(response.status(), from).toBe(308)
    expect(new URL(response.headers().location, 'http://x').pathname, from).toBe(to)
  }
  for (const [path, lang] of [
    ['/', 'fr'],
    ['/about', 'fr'],
    ['/en', 'en'],
    ['/en/about', 'en'],
  ]) {
    const response = await request.get(path, { maxRedirects: 0 })
    expect(response.status(), path).toBe(200)
    expect((await response.text()).includes(`<html lang="${lang}"`), `${path} is in ${lang}`).toBe(true)
  }
  expect((await request.get('/studio/structure', { maxRedirects: 0 })).status()).toBe(200)
  expect((await request.get('/sitemap.xml')).headers()['content-type']).toContain('xml')
  expect((await request.get('/robots.txt')).headers()['content-type']).toContain('text/plain')
  // Unknown paths under the inbox are ordinary French 404s: they tell nothing about what lives there.
  for (const [path, backHome] of [
    ['/nothing-here', "Retour à l'accueil"],
    [`/${INBOX}/deeper`, "Retour à l'accueil"],
    ['/en/nothing-here', 'Back to home'],
  ]) {
    const response = await request.get(path, { maxRedirects: 0 })
    expect(response.status(), path).toBe(404)
    expect((await response.text()).includes(backHome), `${path} shows the site's 404 page saying «${backHome}»`).toBe(
      true,
    )
  }
  expect((await request.get('/api/nothing-here', { maxRedirects: 0 })).status()).toBe(404)
})
