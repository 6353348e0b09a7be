import { readFileSync } from 'node:fs'
import { expect, type APIRequestContext, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test'

/* What the Studio's browser tests share: the local Content Lake's address and token (from the test
 * command), sanity.io's hard-coded hosts answered offline, console error collection, and the few
 * Studio gestures every test makes. */

export const lakeUrl = process.env.CONTENT_LAKE_URL ?? 'http://127.0.0.1:54380'
export const lakeToken = process.env.CONTENT_LAKE_TOKEN ?? ''

// The Studio's own hard-coded calls to sanity.io (version check, error tunnel, the Inter font) are
// answered locally as they would be online, so the console shows only what the local stack causes.
const INTER = readFileSync('node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')
export async function answerSanityHosts(context: BrowserContext) {
  await context.route(/^https:\/\/[a-z.]*sanity-cdn\.com\//, (route) => route.fulfill({ json: { latest: '6.16.0', packageVersion: '6.16.0' } }))
  await context.route(/^https:\/\/api\.sanity\.io\//, (route) => route.fulfill({ json: {} }))
  await context.route(/^https:\/\/design-system-static\.sanity\.io\//, (route) => route.fulfill({ body: INTER, contentType: 'font/woff2' }))
}

/** Console errors and uncaught exceptions of a page, collected from now on. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

export async function lake<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${lakeUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${lakeToken}`, 'Content-Type': 'application/json', ...init.headers } })
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}
export const getDocument = async (id: string) => (await lake<{ documents: Record<string, unknown>[] }>(`/v2025-02-19/data/doc/production/${id}`)).documents[0] ?? null

export const field = (page: Page, path: string) => page.locator(`[id="${path}"]`)

export async function publish(page: Page) {
  const button = page.getByTestId('action-publish')
  await expect(button).toBeEnabled({ timeout: 30_000 })
  await button.click()
  await expect(page.getByText(/was published/)).toBeVisible({ timeout: 30_000 })
}

/**
 * Polls a public page until it contains (or stops containing) a text. `timeoutMs` is a ceiling for
 * hangs on a busy machine, not a speed requirement: `npm run bench:studio` measures publish → page.
 */
export async function waitForPage(request: APIRequestContext, path: string, text: string, { present = true, timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const html = await (await request.get(path, { headers: { 'Cache-Control': 'no-cache' } })).text()
    if (html.includes(text) === present) return
    if (Date.now() > deadline) throw new Error(`${path} ${present ? 'does not show' : 'still shows'} "${text}" after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
