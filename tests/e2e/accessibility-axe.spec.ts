import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { AT_REST, expect, test } from './fixtures'
import { LAYOUT_PAGES, PAGE_LOOP_MS, PAGES, phonePage } from './accessibility-pages'

/*
 * WCAG 2.2 AA beyond axe's default rule set: axe with its best-practice and experimental rules (label
 * in name, target size…) on every page, on a desktop and on a phone, with the menus and the dialog open.
 * What no rule can check is in accessibility-keyboard.spec.ts and accessibility-reflow-spacing-motion.spec.ts.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental']

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
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze()
  return violations.map(
    (violation) =>
      `${label}: ${violation.id} (${violation.impact}) ${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 4)
        .join(' | ')}`,
  )
}

test('axe, all rules (best practices and experimental included): every page on a desktop, menus and dialog open', async ({
  page,
}) => {
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
  // Each package's button names its package, with each language's punctuation.
  await page.goto('/en/linkedin-services')
  await expect(page.getByTestId('package-card').first().getByRole('button')).toHaveAccessibleName(
    /^Choose this package: \S/,
  )
  await page.goto('/linkedin-services')
  await expect(page.getByTestId('package-card').first().getByRole('button')).toHaveAccessibleName(
    /^Choisir ce forfait\u00a0: \S/,
  )
  await page.getByTestId('package-card').first().getByRole('button').click()
  await expect(page.getByTestId('contact-dialog')).toBeVisible()
  // Once its opening fade has finished: contrast is measured on what stays on screen.
  await page.waitForFunction(() => {
    for (
      let element = document.querySelector('[data-testid="contact-dialog"] button[type="submit"]');
      element;
      element = element.parentElement
    )
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

test('axe, all rules, on a phone (target size among them): every layout, the menu open', async ({
  browser,
  baseURL,
}) => {
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
