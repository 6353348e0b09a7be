import type { APIRequestContext } from '@playwright/test'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { expect, test, watchedContext } from './fixtures'
import { createPreviewSecret, lakeToken, lakeUrl, STEGA } from './studio-kit'

/*
 * Draft mode without the Studio, against the local Content Lake: the secret that guards it, the
 * cookies that carry it (never a Content Lake token), and the invisible (stega) encoding that marks
 * its texts for the Presentation tool and must never reach the published site. Nothing here edits
 * content (a preview secret is a draft of its own), so it runs with the site's other tests; the
 * Presentation tool itself is checked in presentation.spec.ts.
 */

/** Every public page, from the sitemap (its URLs carry the configured site origin: keep the paths). */
async function publicPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text()
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname)
  expect(paths.length).toBeGreaterThanOrEqual(16)
  return paths
}

test('draft mode cannot be enabled without a valid secret', async ({ request }) => {
  for (const query of [
    '',
    '?sanity-preview-secret=',
    '?sanity-preview-secret=not-the-secret&sanity-preview-pathname=/',
  ]) {
    const response = await request.get(`/api/draft-mode/enable${query}`, { maxRedirects: 0 })
    expect(response.status()).toBe(401)
    expect(response.headers()['set-cookie'] ?? '').not.toContain('__prerender_bypass')
  }
})

test('a previewed page holds no Content Lake token; draft access is a signed cookie of its own, checked with Next’s', async ({
  browser,
  request,
  baseURL,
}) => {
  const { viewerToken } = (await (await fetch(`${lakeUrl}/v1/auth/local-site-credentials`)).json()) as {
    viewerToken: string
  }
  expect(lakeToken.length).toBeGreaterThan(20)
  expect(viewerToken.length).toBeGreaterThan(20)
  const context = await watchedContext(await browser.newContext())
  const enable = await context.request.get(
    `/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/.//evil.example/x`,
    { maxRedirects: 0 },
  )
  expect(enable.status()).toBe(307)
  // The redirect stays on the site, however the pathname is written.
  expect(new URL(enable.headers().location, baseURL).host).toBe(new URL(baseURL!).host)
  const access =
    enable
      .headersArray()
      .find(({ name, value }) => name.toLowerCase() === 'set-cookie' && value.startsWith('plume-draft-access='))
      ?.value ?? ''
  expect(access).toMatch(/; HttpOnly/i)
  expect(access).toMatch(/; SameSite=lax/i)
  expect(access).toMatch(/; Expires=/i)

  for (const path of ['/', '/en/about']) {
    const html = await (await context.request.get(path)).text()
    expect(html, `${path} is not in draft mode`).toContain('data-testid="draft-mode-banner"')
    expect(html.includes(lakeToken), `${path} holds the editor token`).toBe(false)
    expect(html.includes(viewerToken), `${path} holds the viewer token`).toBe(false)
    expect(html, `${path} holds a token`).not.toMatch(/\?"token\?"\s*:/)
  }
  // Live updates come through the site, with draft access only.
  const page = await context.newPage()
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/draft-mode/live')
  await page.goto('/en')
  expect((await stream).status()).toBe(200)
  expect((await request.get('/api/draft-mode/live')).status()).toBe(401)

  // Next's draft-mode cookie alone (one value per build, which anyone once given it keeps) shows no draft.
  const bypass = (await context.cookies()).filter((cookie) => cookie.name === '__prerender_bypass')
  expect(bypass).toHaveLength(1)
  const leaked = await browser.newContext()
  await leaked.addCookies(bypass)
  const html = await (await leaked.request.get('/en/about')).text()
  expect(html).not.toContain('data-testid="draft-mode-banner"')
  expect(STEGA.test(html)).toBe(false)
  expect((await leaked.request.get('/api/draft-mode/live')).status()).toBe(401)
  await leaked.close()

  // Leaving draft mode clears both cookies.
  const exit = await context.request.get('/api/draft-mode/disable?redirect=/%09/evil.example', { maxRedirects: 0 })
  expect(exit.status()).toBe(303)
  expect(exit.headers().location).toBe('/')
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('plume-draft-access')
  await context.close()
})

test('the published site never carries the invisible encoding; draft mode does, outside metadata', async ({
  browser,
  request,
  baseURL,
}) => {
  const paths = await publicPaths(request)
  for (const path of paths) {
    const html = await (await request.get(path)).text()
    expect(STEGA.test(html), `${path} has stega characters`).toBe(false)
  }

  // The same pages in draft mode: content strings are encoded (which proves the check above can see
  // them), the document title, descriptions, share tags and JSON-LD are not.
  const context = await watchedContext(await browser.newContext())
  const enable = await context.request.get(
    `/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/about`,
    { maxRedirects: 0 },
  )
  expect(enable.status()).toBe(307)
  expect(enable.headers().location).toBe('/about')
  for (const path of ['/', '/en', '/about', '/en/linkedin-services', '/privacy-policy']) {
    const html = await (await context.request.get(path)).text()
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
    expect(STEGA.test(main), `${path} in draft mode has no stega characters`).toBe(true)
    const head = html.slice(0, html.indexOf('</head>'))
    expect(STEGA.test(head), `${path} in draft mode has stega characters in <head>`).toBe(false)
    for (const json of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs))
      expect(STEGA.test(json[1])).toBe(false)
    for (const href of html.matchAll(/href="([^"]*)"/g))
      expect(STEGA.test(href[1]), `${path}: link ${href[1]}`).toBe(false)
  }

  // French typography and the encoding live together: the hero subtitle keeps its no-break space
  // before the colon, and its mark still names the field it comes from.
  const home = await (await context.request.get('/')).text()
  const subtitle = /<p[^>]*>([^<]*\u00a0:[^<]*)<\/p>/.exec(home)?.[1] ?? ''
  const { cleaned, encoded } = vercelStegaSplit(subtitle)
  expect(cleaned).toMatch(/\S\u00a0: \S/)
  expect((vercelStegaDecode(encoded) as { href?: string } | undefined)?.href).toMatch(
    /;id=homePage;type=homePage;path=hero\.subtitle\.fr/,
  )

  // The banner says so, and its link leaves draft mode for the same page.
  const page = await context.newPage()
  await page.goto('/en/about')
  const banner = page.getByTestId('draft-mode-banner')
  await expect(banner).toContainText('Draft preview')
  await banner.getByRole('link', { name: 'Exit preview' }).click()
  await expect(page).toHaveURL(/\/en\/about$/)
  await expect(page.getByTestId('draft-mode-banner')).toHaveCount(0)
  expect(STEGA.test(await page.content())).toBe(false)
  await context.close()
})
