import AxeBuilder from '@axe-core/playwright'
import type { Browser, BrowserContextOptions, Page } from '@playwright/test'
import { AT_REST, expect, test, watchedContext } from './fixtures'
import { tabTo } from './keyboard'
import { LAYOUT_PATHS, localized, PUBLIC_PATHS } from './public-routes'

/*
 * WCAG 2.2 AA beyond axe's default rule set: axe with its best-practice and experimental rules (label
 * in name, target size…) on every page, on a desktop and on a phone, with the menus and the dialog open;
 * then what no rule can check: focus never under the fixed header, reflow at 320 px, text spacing,
 * reduced motion, the skip link.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental']
// Every public page in both languages and the not-found page, at the top level and under a service.
const NOT_FOUND = { fr: ['/page-absente', '/linkedin-services/deeper/path'], en: ['/en/missing-page'] }
const PAGES = (['fr', 'en'] as const).flatMap((locale) => [...PUBLIC_PATHS.map((path) => localized(path, locale)), ...NOT_FOUND[locale]])
// One page of each layout in both languages, the not-found pages with them: where a check is about the
// layout (a phone's width, the fixed header), pages that share one tell nothing more (their words are
// checked on every page by the desktop axe run).
const LAYOUT_PAGES = (['fr', 'en'] as const).flatMap((locale) => [...LAYOUT_PATHS.map((path) => localized(path, locale)), ...NOT_FOUND[locale]])
/* The checks below go through every page in one test (one browser context: its cache keeps each page
 * load cheap; a context per page cost more than the check itself on a busy machine). Their ceiling
 * only catches a hang: some 20 pages at up to 15 s each on a busy 2-core machine. */
const PAGE_LOOP_MS = 300_000
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
// The page loops below read pages at rest: they load them AT_REST (fixtures.ts).

async function axeViolations(page: Page, label: string): Promise<string[]> {
  // Contrast is measured on what stays on screen: once every finite animation has ended (a heading
  // fading in is paler for a moment; on a busy machine axe could catch it half-way).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  // axe runs in the page itself (legacy mode) rather than in each frame and then again in a blank page
  // it opens to merge the frames' results: half its time (0.8 s a page against 1.5 s, measured alone)
  // and one renderer process less each time. What that mode cannot reach is a cross-origin frame; the
  // site's pages have no frame at all, which this asserts, so every element is still checked.
  expect(page.frames(), `${label}: a frame appeared; axe's legacy mode would not look inside it`).toHaveLength(1)
  // Only the violations are read: axe then keeps one node per passed or inapplicable rule instead of
  // every node it checked (a quarter of its time on these pages: 2.0 s a page against 2.7 s).
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().withTags(TAGS).options({ resultTypes: ['violations'] }).analyze()
  return violations.map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 4).join(' | ')}`)
}

async function phonePage(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await watchedContext(await browser.newContext({ baseURL, ...PHONE, ...AT_REST, ...options }))
  return context.newPage()
}

test('axe, all rules (best practices and experimental included): every page on a desktop, menus and dialog open', async ({ page }) => {
  test.setTimeout(PAGE_LOOP_MS)
  await page.emulateMedia(AT_REST)
  const found: string[] = []
  for (const url of PAGES) {
    await page.goto(url)
    found.push(...(await axeViolations(page, url)))
  }
  await page.goto('/')
  await page.getByRole('button', { name: 'Services', exact: true }).click()
  found.push(...(await axeViolations(page, '/ services menu open')))
  await page.keyboard.press('Escape')
  await page.goto('/linkedin-services')
  await page.getByTestId('package-card').first().getByRole('button').click()
  await expect(page.getByTestId('contact-dialog')).toBeVisible()
  // Once its opening fade has finished: contrast is measured on what stays on screen.
  await page.waitForFunction(() => {
    for (let element = document.querySelector('[data-testid="contact-dialog"] button[type="submit"]'); element; element = element.parentElement)
      if (getComputedStyle(element).opacity !== '1') return false
    return document.querySelector('[data-testid="contact-dialog"] button[type="submit"]') !== null
  })
  found.push(...(await axeViolations(page, '/linkedin-services dialog open')))
  await page.goto('/admin-panel-2024')
  await expect(page.getByTestId('admin-login-form')).toBeVisible()
  found.push(...(await axeViolations(page, '/admin-panel-2024')))
  expect(found).toEqual([])
  // The check finds what it looks for: a button with no name, added to the page it has just passed.
  await page.evaluate(() => document.body.append(document.createElement('button')))
  expect(await axeViolations(page, 'an unnamed button')).toContainEqual(expect.stringContaining('button-name'))
})

test('axe, all rules, on a phone (target size among them): every layout, the menu open', async ({ browser, baseURL }) => {
  test.setTimeout(PAGE_LOOP_MS)
  const page = await phonePage(browser, baseURL)
  const found: string[] = []
  for (const url of LAYOUT_PAGES) {
    await page.goto(url)
    found.push(...(await axeViolations(page, `${url} (phone)`)))
  }
  await page.goto('/en')
  await page.getByRole('button', { name: 'Open menu' }).click()
  found.push(...(await axeViolations(page, '/en menu open (phone)')))
  await page.context().close()
  expect(found).toEqual([])
})

/** What the 2.4.11 test records in the page: each Tab stop, and whether the focus came back round. */
type FocusStop = { name: string; covered: boolean }
type FocusLog = { cameRound: boolean; stopsSeen: FocusStop[] }
type FocusLogWindow = { __focusStops: () => FocusLog }

test('2.4.11 Focus Not Obscured: tabbing through each layout, nothing focused is under the fixed header', async ({ page }) => {
  test.setTimeout(PAGE_LOOP_MS)
  // At rest (AT_REST): focus also scrolls at once, so each stop is measured where its scroll
  // ends, with no waiting frame by frame for a smooth scroll to settle.
  await page.emulateMedia(AT_REST)
  const hidden: string[] = []
  for (const url of LAYOUT_PAGES) {
    await page.goto(url)
    // What a Tab can reach on this page: twice that many presses and a little more is the bound that
    // catches a focus trap; the loop ends when the focus comes back round to its first stop.
    const stops = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable="true"]')].filter(
          (element) => element.tabIndex >= 0 && !element.matches(':disabled') && !element.closest('[inert]') && element.getClientRects().length > 0,
        ).length,
    )
    // Each stop is measured in the page when the next Tab goes down, before it moves the focus (and
    // once more when read): the presses then go in runs, read once a run, not a round trip each.
    await page.evaluate(() => {
      const stopsSeen: FocusStop[] = []
      let first: Element | null = null
      let last: Element | null = null
      let cameRound = false
      const measure = () => {
        const active = document.activeElement as HTMLElement | null
        const header = document.querySelector('header')
        if (cameRound || !active || active === document.body || active === last || !header) return
        last = active
        if (active === first) return void (cameRound = true)
        first ??= active
        const box = active.getBoundingClientRect()
        const bar = header.getBoundingClientRect()
        const name = `${active.tagName.toLowerCase()} «${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 40)}»`
        const inBar = header.contains(active) || active.closest('dialog') !== null
        stopsSeen.push({ name, covered: !inBar && box.height > 0 && box.top < bar.bottom - 1 })
      }
      addEventListener('keydown', measure, true)
      ;(window as unknown as FocusLogWindow).__focusStops = () => (measure(), { cameRound, stopsSeen })
    })
    let cameRound = false
    let seen: FocusStop[] = []
    for (let presses = 0, bound = 2 * stops + 10; presses < bound && !cameRound; ) {
      // One run as long as the stops found (and one more, to come round), then a few at a time.
      const run = Math.min(presses === 0 ? stops + 1 : 5, bound - presses)
      for (let i = 0; i < run; i++) await page.keyboard.press('Tab')
      presses += run
      ;({ cameRound, stopsSeen: seen } = await page.evaluate(() => (window as unknown as FocusLogWindow).__focusStops()))
    }
    hidden.push(...seen.filter((stop) => stop.covered).map((stop) => `${url}: ${stop.name}`))
    expect(cameRound, `${url}: the focus did not come back round to its first stop (${stops} stops found)`).toBe(true)
  }
  expect(hidden).toEqual([])
})

// Every page, for its words (a long one can push a page wider); 320 px stands for every phone width: the
// layout has no breakpoint below Tailwind's sm (640 px), so what fits at 320 fits wider.
test('1.4.10 Reflow: at 320 CSS px nothing scrolls sideways or is cut off, inbox included', async ({ browser, baseURL }) => {
  test.setTimeout(PAGE_LOOP_MS)
  const page = await phonePage(browser, baseURL, { viewport: { width: 320, height: 640 } })
  const wide: string[] = []
  for (const url of [...PAGES, '/admin-panel-2024']) {
    await page.goto(url)
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      // Elements whose right edge leaves the screen (decorations marked aria-hidden aside).
      elements: [...document.querySelectorAll('body *')]
        .filter((element) => !element.closest('[aria-hidden="true"]') && element.getClientRects().length > 0)
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && getComputedStyle(element).position !== 'fixed')
        .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`)
        .slice(0, 5),
    }))
    if (overflow.page > 0 || overflow.elements.length) wide.push(`${url}: ${overflow.page} px too wide; ${overflow.elements.join(', ')}`)
  }
  await page.context().close()
  expect(wide).toEqual([])
})

/** Text cut off by a box that clips its overflow (visually hidden text, 1 px on purpose, aside). */
function cutText(): string[] {
  const cut: string[] = []
  for (const element of document.querySelectorAll<HTMLElement>('body *')) {
    const style = getComputedStyle(element)
    if (!/hidden|clip/.test(style.overflowX + style.overflowY) || element.clientWidth <= 1 || element.clientHeight <= 1) continue
    const box = element.getBoundingClientRect()
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('[aria-hidden="true"], .sr-only')) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const outside = [...range.getClientRects()].some((rect) => rect.width > 0 && (rect.left < box.left - 1 || rect.right > box.right + 1 || rect.top < box.top - 1 || rect.bottom > box.bottom + 1))
      if (outside) cut.push(`${element.tagName.toLowerCase()} cuts «${node.textContent.trim().slice(0, 30)}»`)
    }
  }
  return cut.slice(0, 5)
}

test('1.4.12 Text Spacing: with the spacing WCAG asks to allow, no text is clipped or overlaps', async ({ page }) => {
  test.setTimeout(PAGE_LOOP_MS)
  await page.emulateMedia(AT_REST)
  const clipped: string[] = []
  // The check finds what it looks for: a paragraph squeezed into a clipping box.
  await page.goto('/about')
  await page.locator('main p').first().evaluate((p) => Object.assign(p.style, { maxHeight: '1em', overflow: 'hidden' }))
  expect(await page.evaluate(cutText)).not.toEqual([])
  for (const url of [...PAGES, '/admin-panel-2024']) {
    await page.goto(url)
    // As a reader's style sheet or bookmarklet applies it: through the CSSOM, which the policy allows.
    await page.evaluate(() => {
      const sheet = new CSSStyleSheet()
      sheet.replaceSync('* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }')
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    })
    const found = await page.evaluate(cutText)
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    if (found.length || sideways > 0) clipped.push(`${url}: ${found.join(', ')}${sideways > 0 ? ` (${sideways} px sideways)` : ''}`)
  }
  expect(clipped).toEqual([])
})

test('2.3.3 motion: with reduced motion asked for, nothing animates and scrolling jumps; without, it glides', async ({ browser, baseURL }) => {
  const running = async (reducedMotion: 'reduce' | 'no-preference') => {
    const context = await watchedContext(await browser.newContext({ baseURL, reducedMotion }))
    const page = await context.newPage()
    await page.goto('/')
    const moving: string[] = []
    // Down the whole page, so every on-scroll entrance has its chance to start.
    for (let y = 0; y < 12; y++) {
      await page.mouse.wheel(0, 700)
      await page.waitForTimeout(120)
      moving.push(
        ...(await page.evaluate(() =>
          document
            .getAnimations()
            .filter((animation) => animation.playState === 'running' && Number(animation.effect?.getComputedTiming().duration ?? 0) > 1)
            .map((animation) => `${(animation as CSSAnimation).animationName ?? 'animation'} on ${(animation.effect as KeyframeEffect | null)?.target?.tagName.toLowerCase()}`),
        )),
      )
    }
    const behaviour = await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)
    await context.close()
    return { moving: [...new Set(moving)], behaviour }
  }
  const reduced = await running('reduce')
  expect(reduced).toEqual({ moving: [], behaviour: 'auto' })
  const full = await running('no-preference')
  expect(full.behaviour).toBe('smooth')
})

test('skip link: the first Tab stop, visible when focused, and it moves the focus to the content', async ({ page }) => {
  for (const [url, text] of [
    ['/about', 'Aller au contenu'],
    ['/en/about', 'Skip to content'],
  ] as const) {
    await page.goto(url)
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: text })
    await expect(skip).toBeFocused()
    const box = await skip.boundingBox()
    expect(box && box.width > 40 && box.height > 20 && box.y >= 0).toBe(true)
    await page.keyboard.press('Enter')
    await expect(page.locator('main')).toBeFocused()
    // The next Tab goes to the page's content, not back to the header.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true)
  }
})

test('2.5.3 Label in Name: the language toggle is named by what it shows', async ({ page }) => {
  await page.goto('/about')
  await expect(page.getByTestId('language-toggle').first()).toHaveAccessibleName(/^EN\b/)
  await page.goto('/en/about')
  await expect(page.getByTestId('language-toggle').first()).toHaveAccessibleName(/^FR\b/)
  await tabTo(page, page.getByTestId('language-toggle').first())
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/about$/)
})
