import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { APIRequestContext, BrowserContext, ConsoleMessage, Page } from '@playwright/test'
import { expect, test, watchedSharedContext } from './fixtures'

/* What the Studio's browser tests share: the local Content Lake's address and token (from the test
 * command), sanity.io's hard-coded hosts answered offline, console error collection, and the few
 * Studio gestures every test makes. */

export const lakeUrl = process.env.CONTENT_LAKE_URL ?? 'http://127.0.0.1:54380'
export const lakeToken = process.env.CONTENT_LAKE_TOKEN ?? ''

// The Studio's own hard-coded calls to sanity.io (version check, error tunnel, the Inter font) are
// answered locally as they would be online, so the console shows only what the local stack causes.
const INTER = readFileSync('node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')
export async function answerSanityHosts(context: BrowserContext) {
  await context.route(/^https:\/\/[a-z.]*sanity-cdn\.com\//, (route) =>
    route.fulfill({ json: { latest: '6.16.0', packageVersion: '6.16.0' } }),
  )
  await context.route(/^https:\/\/api\.sanity\.io\//, (route) => route.fulfill({ json: {} }))
  await context.route(/^https:\/\/design-system-static\.sanity\.io\//, (route) =>
    route.fulfill({ body: INTER, contentType: 'font/woff2' }),
  )
}

/*
 * Presentation logs this when the previewed page's overlays have not answered within 3 s of the frame
 * loading (sanity's MAX_TIME_TO_OVERLAYS_CONNECTION), and goes on waiting for them: a stopwatch, not
 * a fault (a busy machine hydrates the frame later). The Presentation tests assert the connection
 * itself: a click in the frame focuses the Studio's field only through the overlays.
 */
const SLOW_OVERLAYS_NOTICE =
  "Unable to connect to visual editing. Make sure you've setup '@sanity/visual-editing' correctly"

/*
 * Chromium logs this when a page sends on a WebSocket that has closed. When the Studio's page is left
 * (the tests reload it), both halves of its presence socket react to `beforeunload`: @sanity/bifur-client
 * closes the socket, and the presence store sends its « presence_disconnect » through the same client,
 * which still hands out the closed socket (RxJS shareReplay keeps its last value once its source ends).
 * Whichever listener runs first decides; the message is the Studio's own, whatever the server.
 */
const CLOSED_SOCKET_NOTICE = 'WebSocket is already in CLOSING or CLOSED state.'
const STUDIO_NOTICES = new Set([SLOW_OVERLAYS_NOTICE, CLOSED_SOCKET_NOTICE])

/** Console errors and uncaught exceptions of a page, collected from now on. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' && !STUDIO_NOTICES.has(message.text()))
      errors.push(`${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

export async function lake<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${lakeUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${lakeToken}`, 'Content-Type': 'application/json', ...init.headers },
  })
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}
export const getDocument = async (id: string) =>
  (await lake<{ documents: Record<string, unknown>[] }>(`/v2025-02-19/data/doc/production/${id}`)).documents[0] ?? null

/** A preview secret as the Presentation tool writes it (drafts.<id>, type sanity.previewUrlSecret): what
 *  /api/draft-mode/enable checks before it turns draft mode on. */
export async function createPreviewSecret(baseURL: string): Promise<string> {
  const secret = randomBytes(16).toString('hex')
  const doc = {
    _id: `drafts.test-${secret.slice(0, 8)}`,
    _type: 'sanity.previewUrlSecret',
    secret,
    studioUrl: `${baseURL}/studio`,
    source: 'test',
    userId: 'local-editor',
  }
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ createOrReplace: doc }] }),
  })
  return secret
}

/** The characters @vercel/stega writes in draft mode (current and legacy alphabets). */
export const STEGA = /[\u200B-\u200D\u2060-\u2064\uFEFF]|[\u{1D173}-\u{1D17A}]/u

export const field = (page: Page, path: string) => page.locator(`[id="${path}"]`)

/**
 * Signs the page's context in as an editor does: the Studio goes to the Content Lake's one provider
 * (offline, « Éditeur local »), which sends the browser back with a session the Studio exchanges for a
 * token, kept in the context's localStorage for its later pages.
 */
export async function signInToStudio(page: Page) {
  await page.goto('/studio')
  // One provider (redirectOnSingle, sanity.config.ts): the Studio goes to it without the chooser.
  await expect(page.getByRole('listbox', { name: 'Contenu' })).toBeVisible({ timeout: 60_000 })
}

/**
 * One Studio page for a whole spec file (its tests run in order, `page` is that page): booting the
 * Studio costs seconds of CPU and settling it as much again, more than most tests do, so a file boots
 * it once and its tests move within it as an editor does (openStudio); the public site is looked at in
 * pages opened beside it. Its context is checked for policy violations test by test (fixtures.ts).
 */
export const studioTest = test.extend<{ page: Page }, { studioPage: Page }>({
  studioPage: [
    async ({ browser }, use) => {
      const baseURL = process.env.BASE_URL ?? `http://127.0.0.1:${process.env.E2E_SITE_PORT}`
      // Reduced motion asked for, as some editors have it: these tests check what editing does, not how
      // the Studio or the framed page move (the site's motion is tested in accessibility-reflow-spacing-motion.spec.ts), and the
      // Studio's transitions cost its tests about a fifth of their CPU time (both Studio files side by
      // side: 235–242 against 306 CPU-s; Presentation alone: 67–78 against 80–95, four runs each).
      const context = await watchedSharedContext(
        await browser.newContext({
          baseURL,
          viewport: { width: 1440, height: 900 },
          ignoreHTTPSErrors: true,
          reducedMotion: 'reduce',
        }),
      )
      await answerSanityHosts(context)
      const page = await context.newPage()
      await signInToStudio(page)
      await use(page)
      await context.close()
    },
    { scope: 'worker' },
  ],
  // Each test starts without the cookies an earlier one left (the Presentation tool turns draft mode
  // on): the public site is seen as visitors see it unless the test itself enters draft mode.
  // A test that fails keeps what the Studio said: its uncaught errors and console errors, and the text
  // of a crash screen (« The structure tool crashed » shows its error only there), as an attachment
  // the report prints.
  page: async ({ studioPage }, provide, testInfo) => {
    await studioPage.context().clearCookies()
    const errors: string[] = []
    const onError = (error: Error) => errors.push(`uncaught: ${error.stack ?? error.message}`)
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`)
    }
    studioPage.on('pageerror', onError)
    studioPage.on('console', onConsole)
    await provide(studioPage)
    studioPage.off('pageerror', onError)
    studioPage.off('console', onConsole)
    if (testInfo.status === testInfo.expectedStatus) return
    const crashed = await studioPage.getByText(/crashed/i).count()
    const screen = crashed
      ? await studioPage
          .locator('body')
          .innerText({ timeout: 5_000 })
          .catch(() => '')
      : ''
    const body = [...errors, screen && `crash screen:\n${screen}`].filter(Boolean).join('\n\n')
    if (body) await testInfo.attach('studio-errors', { body, contentType: 'text/plain' })
  },
})

/**
 * Goes to a Studio URL: loads the Studio when the page is elsewhere, otherwise moves through its router
 * as its own links do (it follows the browser history). Between two documents the structure comes
 * first, so a form still on screen is always the one asked for.
 */
export async function openStudio(page: Page, path: string) {
  const current = page.url()
  if (!current.startsWith('http') || !new URL(current).pathname.startsWith('/studio'))
    return void (await page.goto(path))
  const go = (target: string) =>
    page.evaluate((url) => {
      history.pushState(null, '', url)
      dispatchEvent(new PopStateEvent('popstate'))
    }, target)
  await go('/studio/structure')
  await expect(page.getByTestId('form-view')).toHaveCount(0, { timeout: 30_000 })
  if (path !== '/studio/structure') await go(path)
}

/** Opens a document of the structure (`<list>;<id>`, or a singleton's id) and waits until it has settled. */
export async function openDocument(page: Page, path: string) {
  await openStudio(page, `/studio/structure/${path}`)
  await formSettled(page)
}

/** Waits until the open document's form has settled. */
export async function formSettled(page: Page) {
  await expect(page.getByTestId('form-view')).toBeVisible({ timeout: 60_000 })
  // The Presentation tool then finds the pages that show the document and lists them above the form,
  // which draws it again (an opened object closes again): act once they are there.
  await expect(page.getByRole('button', { name: /^(Used on \d+ pages?|Utilisé sur|Affiché sur)/ })).toBeVisible({
    timeout: 120_000,
  })
}

/** A page of the public site, opened beside the Studio's. */
export async function sitePage(page: Page, path: string): Promise<Page> {
  const site = await page.context().newPage()
  await site.goto(path)
  return site
}

/**
 * Uploads an image into the open document's image field as an editor does (its options menu, « Upload »,
 * the file chooser), and waits until the document's draft holds it: `asset` is the end of the new
 * asset's id (`-<width>x<height>-<format>`).
 */
export async function uploadImage(
  page: Page,
  documentId: string,
  file: { name: string; mimeType: string; buffer: Buffer },
  asset: string,
) {
  // The menu can close again when the form re-renders under it (a live update): open it until it stays.
  const upload = page.getByTestId('file-input-upload-button')
  await expect(async () => {
    if (!(await upload.isVisible())) await page.getByTestId('image-input').getByTestId('options-menu-button').click()
    await expect(upload).toBeVisible({ timeout: 3_000 })
  }).toPass({ timeout: 30_000 })
  const chooser = page.waitForEvent('filechooser')
  await upload.click()
  await (await chooser).setFiles(file)
  await expect
    .poll(async () => JSON.stringify(await getDocument(`drafts.${documentId}`)), { timeout: 30_000 })
    .toContain(asset)
}

export async function publish(page: Page) {
  // The page is shared by a file's tests: an earlier test's notice must be gone before this one counts.
  await expect(page.getByText('Le document a été publié')).toHaveCount(0, { timeout: 30_000 })
  const button = page.getByTestId('action-publier')
  await expect(button).toBeEnabled({ timeout: 30_000 })
  await button.click()
  await expect(page.getByText('Le document a été publié')).toBeVisible({ timeout: 30_000 })
  // The notice comes with the action's answer; the Studio learns that the draft is gone from its
  // listener, a moment later on a busy machine. An editor edits again once the Studio shows it (nothing
  // left to publish): typing into the draft the publish is deleting makes the Studio rebase its edit
  // onto a deleted document, and its form crash (« getAttribute only applies to plain objects »).
  await expect(button).toBeDisabled({ timeout: 30_000 })
}

/**
 * Polls a public page until it contains (or stops containing) a text. `timeoutMs` is a ceiling for
 * hangs on a busy machine, not a speed requirement: `npm run bench:studio` measures publish → page.
 */
export async function waitForPage(
  request: APIRequestContext,
  path: string,
  text: string,
  { present = true, timeoutMs = 30_000 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const html = await (await request.get(path, { headers: { 'Cache-Control': 'no-cache' } })).text()
    if (html.includes(text) === present) return
    if (Date.now() > deadline)
      throw new Error(`${path} ${present ? 'does not show' : 'still shows'} "${text}" after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
