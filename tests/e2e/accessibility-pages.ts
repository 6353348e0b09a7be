import type { Browser, BrowserContextOptions, Page } from '@playwright/test'
import { AT_REST, watchedContext } from './fixtures'
import { LAYOUT_PATHS, localized, PUBLIC_PATHS } from './public-routes'

/*
 * The pages the WCAG 2.2 checks (accessibility-*.spec.ts) go through, and the phone they use.
 */

// Every public page in both languages and the not-found page, at the top level and under a service.
const NOT_FOUND = { fr: ['/page-absente', '/linkedin-services/deeper/path'], en: ['/en/missing-page'] }
export const PAGES = (['fr', 'en'] as const).flatMap((locale) => [
  ...PUBLIC_PATHS.map((path) => localized(path, locale)),
  ...NOT_FOUND[locale],
])
// One page of each layout in both languages, the not-found pages with them: where a check is about the
// layout (a phone's width, the fixed header), pages that share one tell nothing more (their words are
// checked on every page by the desktop axe run).
export const LAYOUT_PAGES = (['fr', 'en'] as const).flatMap((locale) => [
  ...LAYOUT_PATHS.map((path) => localized(path, locale)),
  ...NOT_FOUND[locale],
])
/* The checks go through every page in one test (one browser context: its cache keeps each page
 * load cheap; a context per page cost more than the check itself on a busy machine). Their ceiling
 * only catches a hang: some 20 pages at up to 15 s each on a busy 2-core machine. */
export const PAGE_LOOP_MS = 300_000
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
}
// The page loops read pages at rest: they load them AT_REST (fixtures.ts).

export async function phonePage(
  browser: Browser,
  baseURL: string | undefined,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await watchedContext(await browser.newContext({ baseURL, ...PHONE, ...AT_REST, ...options }))
  return context.newPage()
}
