import { randomBytes } from 'node:crypto'
import { expect, watchedContext } from './fixtures'
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { answerSanityHosts, collectErrors, field, lake, lakeToken, lakeUrl, openStudio, publish, studioTest as test, waitForPage } from './studio-kit'

/*
 * Draft mode and the Presentation tool, offline, against the local Content Lake: the secret that
 * guards draft mode, the invisible (stega) encoding that must never reach the published site, and the
 * editor's loop in /studio/presentation: the page in its frame, click a text to open its field, type,
 * see the frame follow, publish. The Studio's tests share one Studio page (studioTest).
 */

test.describe.configure({ mode: 'serial' })

test.beforeEach(async ({ context }) => {
  await answerSanityHosts(context)
})

/** The characters @vercel/stega writes (current and legacy alphabets). */
const STEGA = /[\u200B-\u200D\u2060-\u2064\uFEFF]|[\u{1D173}-\u{1D17A}]/u

/** Every public page, from the sitemap (its URLs carry the configured site origin: keep the paths). */
async function publicPaths(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text()
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname)
  expect(paths.length).toBeGreaterThanOrEqual(16)
  return paths
}

/** A preview secret as the Presentation tool writes it (drafts.<id>, type sanity.previewUrlSecret). */
async function createPreviewSecret(baseURL: string): Promise<string> {
  const secret = randomBytes(16).toString('hex')
  const doc = { _id: `drafts.test-${secret.slice(0, 8)}`, _type: 'sanity.previewUrlSecret', secret, studioUrl: `${baseURL}/studio`, source: 'test', userId: 'local-editor' }
  await lake('/v2025-02-19/data/mutate/production', { method: 'POST', body: JSON.stringify({ mutations: [{ createOrReplace: doc }] }) })
  return secret
}

test('draft mode cannot be enabled without a valid secret', async ({ request }) => {
  for (const query of ['', '?sanity-preview-secret=', '?sanity-preview-secret=not-the-secret&sanity-preview-pathname=/']) {
    const response = await request.get(`/api/draft-mode/enable${query}`, { maxRedirects: 0 })
    expect(response.status()).toBe(401)
    expect(response.headers()['set-cookie'] ?? '').not.toContain('__prerender_bypass')
  }
})

test('a previewed page holds no Content Lake token; draft access is a signed cookie of its own, checked with Next’s', async ({ browser, request, baseURL }) => {
  const { viewerToken } = (await (await fetch(`${lakeUrl}/v1/auth/local-site-credentials`)).json()) as { viewerToken: string }
  expect(lakeToken.length).toBeGreaterThan(20)
  expect(viewerToken.length).toBeGreaterThan(20)
  const context = await watchedContext(await browser.newContext())
  const enable = await context.request.get(`/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/.//evil.example/x`, { maxRedirects: 0 })
  expect(enable.status()).toBe(307)
  // The redirect stays on the site, however the pathname is written.
  expect(new URL(enable.headers().location, baseURL).host).toBe(new URL(baseURL!).host)
  const access = enable.headersArray().find(({ name, value }) => name.toLowerCase() === 'set-cookie' && value.startsWith('plume-draft-access='))?.value ?? ''
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

test('the published site never carries the invisible encoding; draft mode does, outside metadata', async ({ browser, request, baseURL }) => {
  const paths = await publicPaths(request)
  for (const path of paths) {
    const html = await (await request.get(path)).text()
    expect(STEGA.test(html), `${path} has stega characters`).toBe(false)
  }

  // The same pages in draft mode: content strings are encoded (which proves the check above can see
  // them), the document title, descriptions, share tags and JSON-LD are not.
  const context = await watchedContext(await browser.newContext())
  const enable = await context.request.get(`/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/about`, { maxRedirects: 0 })
  expect(enable.status()).toBe(307)
  expect(enable.headers().location).toBe('/about')
  for (const path of ['/', '/en', '/about', '/en/linkedin-services', '/privacy-policy']) {
    const html = await (await context.request.get(path)).text()
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
    expect(STEGA.test(main), `${path} in draft mode has no stega characters`).toBe(true)
    const head = html.slice(0, html.indexOf('</head>'))
    expect(STEGA.test(head), `${path} in draft mode has stega characters in <head>`).toBe(false)
    for (const json of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)) expect(STEGA.test(json[1])).toBe(false)
    for (const href of html.matchAll(/href="([^"]*)"/g)) expect(STEGA.test(href[1]), `${path}: link ${href[1]}`).toBe(false)
  }

  // French typography and the encoding live together: the hero subtitle keeps its no-break space
  // before the colon, and its mark still names the field it comes from.
  const home = await (await context.request.get('/')).text()
  const subtitle = /<p[^>]*>([^<]*\u00a0:[^<]*)<\/p>/.exec(home)?.[1] ?? ''
  const { cleaned, encoded } = vercelStegaSplit(subtitle)
  expect(cleaned).toMatch(/\S\u00a0: \S/)
  expect((vercelStegaDecode(encoded) as { href?: string } | undefined)?.href).toMatch(/;id=homePage;type=homePage;path=hero\.subtitle\.fr/)

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

/**
 * How long the framed page may take to follow an edit before the test calls it stuck: a ceiling for
 * hangs on a busy machine, not a speed requirement (the Studio commits typing at most once a second;
 * `npm run bench:studio` measures how fast the frame follows).
 */
const FOLLOW_MS = 30_000

/**
 * When the framed page's <h1> contains `text`, seen from inside the frame (a MutationObserver, so no
 * intermediate state is missed). Start it before the change; it rejects after `timeoutMs`.
 */
function frameHeadingShows(page: Page, text: string, timeoutMs = FOLLOW_MS): Promise<void> {
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame() && !new URL(candidate.url()).pathname.startsWith('/studio'))
  if (!frame) throw new Error('no preview frame')
  return frame.evaluate(
    ({ text, timeoutMs, stega }) =>
      new Promise<void>((resolve, reject) => {
        const shows = () => (document.querySelector('h1')?.textContent ?? '').replace(new RegExp(stega, 'gu'), '').includes(text)
        if (shows()) return resolve()
        const observer = new MutationObserver(() => {
          if (!shows()) return
          observer.disconnect()
          clearTimeout(timer)
          resolve()
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error(`the framed page does not show "${text}" after ${timeoutMs} ms`))
        }, timeoutMs)
      }),
    { text, timeoutMs, stega: STEGA.source },
  )
}

async function openPresentation(page: Page, preview: string): Promise<FrameLocator> {
  await openStudio(page, `/studio/presentation?preview=${encodeURIComponent(preview)}`)
  const frame = page.frameLocator('iframe').first()
  // A hang ceiling: on a busy 2-core machine the Studio took over 45 s to render the tool and its frame.
  await expect(frame.locator('h1').first()).toBeVisible({ timeout: 120_000 })
  await expect(frame.getByTestId('draft-mode-banner')).toBeVisible({ timeout: 30_000 })
  return frame
}

/** Clicks a text in the frame until the Studio focuses its field (the overlays start once the page's preview code has loaded). */
async function clickToEdit(page: Page, frame: FrameLocator, path: string) {
  const heading = frame.locator('h1').first()
  const input = field(page, path)
  await expect(async () => {
    await heading.hover()
    await heading.click()
    await expect(input).toBeFocused({ timeout: 3_000 })
  }).toPass({ timeout: 30_000 })
  return input
}

test('Presentation: click the hero title to edit it, the frame follows the typing, publishing updates the site', async ({ page, request }) => {
  // A ceiling for hangs: the Studio's first render, the typing and the publish took over 3 minutes on a
  // busy 2-core machine (the steps themselves wait for outcomes).
  test.setTimeout(360_000)
  const errors = collectErrors(page)
  const frame = await openPresentation(page, '/')
  const original = ((await frame.locator('h1').first().textContent()) ?? '').replace(new RegExp(STEGA.source, 'gu'), '').trim()
  const input = await clickToEdit(page, frame, 'hero.title.fr')

  // The frame follows the typing word by word (each word waited for, not timed).
  const started = frameHeadingShows(page, 'Des mots')
  await input.fill('Des mots')
  await started
  for (const word of ['qui', 'font', 'grandir', 'votre', 'entreprise', Date.now().toString(36)]) {
    const shows = frameHeadingShows(page, ` ${word}`)
    await input.press('End')
    await input.pressSequentially(` ${word}`)
    await shows
  }
  const title = await input.inputValue()
  expect(title).not.toBe(original)
  // Still a draft: the public page has not changed.
  expect(await (await request.get('/')).text()).not.toContain(title)

  await publish(page)
  await waitForPage(request, '/', title)
  expect(errors).toEqual([])
})

test('Presentation previews English too: an English edit shows in the /en frame and, once published, on /en only', async ({ page, request }) => {
  test.setTimeout(360_000)
  const frame = await openPresentation(page, '/en/about')
  const input = await clickToEdit(page, frame, 'hero.title.en')
  // The first edit creates the draft (the frame follows through its server refresh), the next one
  // goes through the live draft, as in French.
  const base = `About the studio ${Date.now().toString(36)}`
  const created = frameHeadingShows(page, base)
  await input.fill(base)
  await created
  const title = `${base} today`
  const shows = frameHeadingShows(page, title)
  await input.press('End')
  await input.pressSequentially(' today')
  await shows
  await publish(page)
  await waitForPage(request, '/en/about', title)
  expect(await (await request.get('/about')).text()).not.toContain(title)
})

test('a document lists the pages that show it, in both languages', async ({ page }) => {
  for (const [path, summary, pages] of [
    ['services;service-linkedin', 'Used on 4 pages', ['Contenu LinkedIn (FR)', 'LinkedIn content (EN)', 'Accueil (FR)', 'Home (EN)']],
    // Site settings say where they show (everywhere) and list the main pages.
    ['siteSettings', 'Utilisé sur toutes les pages (en-tête, pied de page, référencement)', ['Accueil (FR)', 'About (EN)', 'Contact (EN)']],
  ] as const) {
    await openStudio(page, `/studio/structure/${path}`)
    const used = page.getByRole('button', { name: summary })
    await expect(used).toBeVisible({ timeout: 120_000 })
    await used.click()
    for (const title of pages) await expect(page.getByText(title, { exact: true }).first()).toBeVisible()
  }
})
