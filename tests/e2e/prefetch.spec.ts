import { expect, test, watchedContext } from './fixtures'
import type { Browser, Locator, Page, Request } from '@playwright/test'
import { localized } from './public-routes'

/*
 * Prefetching must settle: after any way the header or the hero takes a visitor somewhere, the router
 * fetches what the links in view need, once. French links once made Next's route prediction retry
 * without end (~1,500 requests in 10 s, hundreds for the same data, some answered 404). Each behaviour
 * is watched until the router has gone quiet (nothing asked or answered for QUIET_MS), or fails
 * if it never does: then no 404, no data asked for more than 3 times from one page (a click racing an
 * unfinished prefetch may legitimately ask twice or three times), no more than a page's worth of
 * requests. Every behaviour runs in its own browser context, four at a time.
 */
const QUIET_MS = 3_000
/** A ceiling for hangs: a router that keeps asking never goes quiet. */
const SETTLE_MS = 30_000
const MAX_SAME = 3
const MAX_REQUESTS = 80

type Locale = 'fr' | 'en'
type Width = { name: string; viewport: { width: number; height: number }; phone: boolean }

const WIDTHS: Width[] = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
]

/** A link or button of the header: in the desktop bar, or in the menu panel a phone opens first. */
async function headerControl(page: Page, phone: boolean, selector: string): Promise<Locator> {
  if (!phone) return page.locator('header').locator(`${selector}:visible`).first()
  await page.getByTestId('mobile-menu-button').click()
  return page.locator('#mobile-menu').locator(selector)
}

type Behaviour = {
  name: string
  /** Through the header's links, which a phone shows in its menu panel: the phone is a path of its own. */
  throughMenu: boolean
  from: string
  /** Where the visitor lands, without locale prefix. */
  to: string
  act: (page: Page, phone: boolean, locale: Locale) => Promise<void>
}

const BEHAVIOURS: Behaviour[] = [
  { name: 'brand', throughMenu: false, from: '/about', to: '/', act: (page) => page.getByTestId('brand').click() },
  {
    name: 'services entry',
    throughMenu: true,
    from: '/',
    to: '/redaction-web',
    act: async (page, phone, locale) => {
      if (!phone) await page.locator('header nav').getByRole('button', { name: 'Services' }).hover()
      const href = localized('/redaction-web', locale)
      await (
        phone
          ? await headerControl(page, true, `a[href="${href}"]`)
          : page.getByTestId('services-menu').locator(`a[href="${href}"]`)
      ).click()
    },
  },
  {
    name: 'benefits anchor',
    throughMenu: true,
    from: '/contact',
    to: '/',
    act: async (page, phone, locale) =>
      (await headerControl(page, phone, `a[href="${locale === 'fr' ? '/#benefits' : '/en#benefits'}"]`)).click(),
  },
  {
    name: 'about link',
    throughMenu: true,
    from: '/',
    to: '/about',
    act: async (page, phone, locale) =>
      (await headerControl(page, phone, `a[href="${localized('/about', locale)}"]`)).click(),
  },
  {
    name: 'language toggle',
    throughMenu: true,
    from: '/',
    to: '/',
    act: async (page, phone) => (await headerControl(page, phone, '[data-testid="language-toggle"]')).click(),
  },
  {
    name: 'call to action on home',
    throughMenu: true,
    from: '/',
    to: '/',
    act: async (page, phone) => (await headerControl(page, phone, '[data-testid="nav-cta"]')).click(),
  },
  {
    name: 'call to action elsewhere',
    throughMenu: true,
    from: '/contact',
    to: '/',
    act: async (page, phone) => (await headerControl(page, phone, '[data-testid="nav-cta"]')).click(),
  },
  { name: 'hero button', throughMenu: false, from: '/', to: '/', act: (page) => page.getByTestId('hero-cta').click() },
]

type Watch = { behaviour: string; requests: string[]; notFound: string[]; settled: boolean }

/** Resolves true once no router request has been sent or answered for QUIET_MS, false if that
 *  does not happen within SETTLE_MS. */
function routerQuiet(page: Page): Promise<boolean> {
  const isRouterRequest = (url: string) => new URL(url).searchParams.has('_rsc')
  let lastActivity = Date.now()
  const seen = (request: Request) => {
    if (isRouterRequest(request.url())) lastActivity = Date.now()
  }
  const sent = seen
  const ended = seen
  page.on('request', sent)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  const deadline = Date.now() + SETTLE_MS
  return new Promise((resolve) => {
    const check = setInterval(() => {
      // Quiet: nothing sent or answered for QUIET_MS. A request still pending then (a prefetch the
      // toggle's full navigation left unanswered) is not the router asking again: a retry loop sends.
      const quiet = Date.now() - lastActivity >= QUIET_MS
      if (!quiet && Date.now() < deadline) return
      clearInterval(check)
      page.off('request', sent)
      page.off('requestfinished', ended)
      page.off('requestfailed', ended)
      resolve(quiet)
    }, 100)
  })
}

async function runBehaviour(
  browser: Browser,
  baseURL: string,
  width: Width,
  locale: Locale,
  behaviour: Behaviour,
): Promise<Watch> {
  const context = await watchedContext(
    await browser.newContext({
      baseURL,
      viewport: width.viewport,
      isMobile: width.phone,
      hasTouch: width.phone,
    }),
  )
  try {
    const page = await context.newPage()
    await page.goto(localized(behaviour.from, locale))
    const watch: Watch = { behaviour: behaviour.name, requests: [], notFound: [], settled: false }
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (!url.searchParams.has('_rsc')) return
      // The data asked for (page, and segment for a prefetch) and the page asking (Next-Url).
      const headers = request.headers()
      const kind =
        headers['next-router-segment-prefetch'] ?? (headers['next-router-prefetch'] ? 'prefetch' : 'navigation')
      watch.requests.push(`${url.pathname} ${kind} from ${headers['next-url'] ?? '?'}`)
    })
    page.on('response', (response) => {
      if (new URL(response.url()).searchParams.has('_rsc') && response.status() === 404)
        watch.notFound.push(response.url())
    })
    // The other language's toggle leads to the same page in that language.
    const target =
      behaviour.name === 'language toggle'
        ? localized(behaviour.to, locale === 'fr' ? 'en' : 'fr')
        : localized(behaviour.to, locale)
    const quiet = routerQuiet(page)
    await behaviour.act(page, width.phone, locale)
    await expect(page).toHaveURL((url) => url.pathname === target)
    watch.settled = await quiet
    return watch
  } finally {
    await context.close()
  }
}

// French on both widths (French links are where the router once looped), English on a desktop: the
// phone's menu is the same component in either language.
const RUNS: Array<[Locale, Width]> = [
  ['fr', WIDTHS[0]],
  ['fr', WIDTHS[1]],
  ['en', WIDTHS[0]],
]
for (const [locale, width] of RUNS) {
  test(`prefetching settles after every header and hero navigation (${locale}, ${width.name})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000)
    // On a phone, what does not go through the menu (the brand, the hero's button) is the desktop's
    // path again.
    const behaviours = BEHAVIOURS.filter((behaviour) => !width.phone || behaviour.throughMenu)
    // Four behaviours at a time: eight browser pages at once slowed the timing-sensitive tests running
    // beside this one on a 2-core machine.
    const watches: Watch[] = []
    for (let first = 0; first < behaviours.length; first += 4) {
      const batch = behaviours.slice(first, first + 4)
      watches.push(
        ...(await Promise.all(
          batch.map((behaviour) => runBehaviour(browser, baseURL ?? '', width, locale, behaviour)),
        )),
      )
    }
    for (const watch of watches) {
      const counts = new Map<string, number>()
      for (const key of watch.requests) counts.set(key, (counts.get(key) ?? 0) + 1)
      const repeated = [...counts].filter(([, count]) => count > MAX_SAME).map(([key, count]) => `${key} ×${count}`)
      const summary = `${watch.behaviour}: ${watch.requests.length} requests`
      expect(watch.settled, `${summary}, still asking after ${SETTLE_MS / 1000} s`).toBe(true)
      expect(repeated, `${summary}, the same data again and again`).toEqual([])
      expect(watch.requests.length, summary).toBeLessThanOrEqual(MAX_REQUESTS)
      expect(watch.notFound, `${watch.behaviour}: prefetches answered 404`).toEqual([])
    }
  })
}

test('a page downloads no image it does not show, whatever the router prefetches (/en, then the about page)', async ({
  page,
}) => {
  const images: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'image' && !request.url().startsWith('data:')) images.push(request.url())
  })
  // The header links to the about page, whose photo is its main image: its prefetch must not bring it.
  const aboutPrefetched = page.waitForRequest((request) => {
    const url = new URL(request.url())
    return url.searchParams.has('_rsc') && url.pathname === '/en/about'
  })
  await page.goto('/en')
  await aboutPrefetched
  expect(await routerQuiet(page), 'the router went quiet').toBe(true)
  const shown = await page.evaluate(() => Array.from(document.images, (image) => image.currentSrc))
  expect(images.filter((url) => !shown.includes(url))).toEqual([])
  await expect(page.locator('link[rel="preload"][as="image"]')).toHaveCount(0)

  // The about page still fetches its photo first thing: eagerly, at high priority, and shows it.
  await page.goto('/en/about')
  const photo = page.getByTestId('founder-photo')
  await expect(photo).toHaveAttribute('loading', 'eager')
  await expect(photo).toHaveAttribute('fetchpriority', 'high')
  await expect(photo).toHaveJSProperty('complete', true)
  expect(await photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
})
