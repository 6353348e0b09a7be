import { AT_REST, expect, test } from './fixtures'
import { tabTo } from './keyboard'
import { LAYOUT_PAGES, PAGE_LOOP_MS } from './accessibility-pages'

/*
 * WCAG 2.2 AA by keyboard, what no axe rule can check: focus never under the fixed header, the skip
 * link, and a control named by what it shows.
 */

/** What the 2.4.11 test records in the page: each Tab stop, and whether the focus came back round. */
type FocusStop = { name: string; covered: boolean }
type FocusLog = { cameRound: boolean; stopsSeen: FocusStop[] }
type FocusLogWindow = { __focusStops: () => FocusLog }

test('2.4.11 Focus Not Obscured: tabbing through each layout, nothing focused is under the fixed header', async ({
  page,
}) => {
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
        [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable="true"]',
          ),
        ].filter(
          (element) =>
            element.tabIndex >= 0 &&
            !element.matches(':disabled') &&
            !element.closest('[inert]') &&
            element.getClientRects().length > 0,
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
    for (let presses = 0, bound = 2 * stops + 10; presses < bound && !cameRound;) {
      // One run as long as the stops found (and one more, to come round), then a few at a time.
      const run = Math.min(presses === 0 ? stops + 1 : 5, bound - presses)
      for (let i = 0; i < run; i++) await page.keyboard.press('Tab')
      presses += run
      ;({ cameRound, stopsSeen: seen } = await page.evaluate(() =>
        (window as unknown as FocusLogWindow).__focusStops(),
      ))
    }
    hidden.push(...seen.filter((stop) => stop.covered).map((stop) => `${url}: ${stop.name}`))
    expect(cameRound, `${url}: the focus did not come back round to its first stop (${stops} stops found)`).toBe(true)
  }
  expect(hidden).toEqual([])
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
