import { expect, test, watchedContext } from './fixtures'
import type { Locator, Page } from '@playwright/test'

/*
 * Layout checks at the widths visitors use: phone 390, tablet 768, laptop 1024 and 1280, desktop 1440.
 * Each builds its own page at the size it needs.
 */

type Box = { x: number; y: number; width: number; height: number }

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox()
  if (!found) throw new Error('element has no box (hidden?)')
  return found
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

for (const width of [1024, 1280, 1440]) {
  test(`home hero at ${width} px: the "20+" badge leaves the illustration's circle clear`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    for (const path of ['/', '/en']) {
      await page.goto(path)
      const badge = await box(page.getByTestId('hero-projects-badge'))
      const circle = await box(page.getByTestId('hero-illustration-avatar'))
      expect(
        overlap(badge, circle),
        `${path}: badge ${JSON.stringify(badge)} overlaps circle ${JSON.stringify(circle)}`,
      ).toBe(false)
    }
  })
}

/** The client logos grouped into rows by their vertical position: how many logos each row holds. */
async function logoRows(page: Page): Promise<number[]> {
  const tops = await page
    .locator('section[aria-labelledby="clients-title"] li')
    .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)))
  const rows = new Map<number, number>()
  for (const top of tops) {
    const row = [...rows.keys()].find((known) => Math.abs(known - top) < 8) ?? top
    rows.set(row, (rows.get(row) ?? 0) + 1)
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, count]) => count)
}

/**
 * The viewport widths at which the logo strip's layout can change: the thresholds of the media queries
 * whose rules style the list, what it holds or what holds it, read from the page's own style sheets
 * (so the test follows the component's classes). Between two of them the grid keeps its columns and
 * every logo its place in them (lib/balanced-rows.ts): the row lengths cannot change.
 */
async function logoLayoutWidths(page: Page): Promise<number[]> {
  return page.locator('section[aria-labelledby="clients-title"] ul').evaluate((list) => {
    const elements: Element[] = [...list.querySelectorAll('*')]
    for (let element: Element | null = list; element; element = element.parentElement) elements.push(element)
    const matches = (selector: string) =>
      elements.some((element) => {
        try {
          return element.matches(selector)
        } catch {
          return false // a selector this engine does not take (a vendor pseudo-class)
        }
      })
    const widths = new Set<number>()
    const visit = (rules: CSSRuleList, media: string[], styled: boolean) => {
      for (const rule of rules) {
        if (rule instanceof CSSMediaRule) visit(rule.cssRules, [...media, rule.conditionText], styled)
        else if (rule instanceof CSSStyleRule) {
          const applies = styled || matches(rule.selectorText)
          // A media query's rem is the initial font size, 16 px.
          if (applies)
            for (const condition of media)
              for (const [, value, unit] of condition.matchAll(/width\s*(?:>=|<=|>|<|:)\s*([\d.]+)(px|r?em)/g))
                widths.add(Math.round(Number(value) * (unit === 'px' ? 1 : 16)))
          visit(rule.cssRules, media, applies)
        } else if ('cssRules' in rule) visit((rule as CSSGroupingRule).cssRules, media, styled) // @layer, @supports
      }
    }
    for (const sheet of document.styleSheets) visit(sheet.cssRules, [], false)
    return [...widths].sort((a, b) => a - b)
  })
}

test('client logos: no logo sits alone on a row at any width', async ({ page }) => {
  await page.goto('/')
  const breakpoints = await logoLayoutWidths(page)
  expect(breakpoints.length, 'no width-dependent rule found for the logo strip').toBeGreaterThan(0)
  // Each width where the layout can change, one pixel either side, and the narrowest and widest screens.
  const widths = [...new Set([320, 1600, ...breakpoints.flatMap((width) => [width - 1, width, width + 1])])]
    .filter((width) => width >= 320 && width <= 1600)
    .sort((a, b) => a - b)
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    const rows = await logoRows(page)
    expect(rows.reduce((sum, count) => sum + count, 0)).toBe(7)
    expect(
      rows.filter((count) => count === 1),
      `${width} px: rows ${rows.join(' + ')}`,
    ).toEqual([])
  }
})

test('client logos: each logo is shown large enough to read', async ({ page }) => {
  for (const width of [320, 390, 768, 1024, 1440]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/')
    const widths = await page
      .locator('section[aria-labelledby="clients-title"] img')
      .evaluateAll((images) => images.map((image) => image.getBoundingClientRect().width))
    for (const logoWidth of widths) expect(logoWidth, `${width} px`).toBeGreaterThanOrEqual(80)
  }
})

/** WCAG relative luminance of a CSS rgb()/rgba() colour, and the contrast ratio of two of them. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

/** Every text field of a form (not the hidden anti-bot one): its border colour and the opaque colour around it. */
async function fieldEdges(form: Locator): Promise<{ name: string; border: string; around: string }[]> {
  await expect(form.locator('input:visible, textarea:visible').first()).toBeVisible()
  return form.locator('input:visible:not([tabindex="-1"]), textarea:visible').evaluateAll((fields) =>
    fields.map((field) => {
      let parent = field.parentElement
      while (parent && /rgba\(.*, 0\)|transparent/.test(getComputedStyle(parent).backgroundColor))
        parent = parent.parentElement
      return {
        name: field.getAttribute('name') ?? '',
        border: getComputedStyle(field).borderTopColor,
        around: parent ? getComputedStyle(parent).backgroundColor : 'rgb(255, 255, 255)',
      }
    }),
  )
}

test('contact form fields have borders with at least 3:1 contrast (WCAG 1.4.11), on the page and in the dialog', async ({
  page,
}) => {
  await page.goto('/contact')
  const pageFields = await fieldEdges(page.getByTestId('contact-form-page'))
  await page.goto('/en/redaction-web')
  await page.getByTestId('package-card').first().getByRole('button').click()
  const dialogFields = await fieldEdges(page.getByTestId('contact-form-dialog'))
  expect(pageFields.length).toBe(4)
  expect(dialogFields.length).toBe(4)
  for (const field of [...pageFields, ...dialogFields]) {
    expect(
      contrast(field.border, field.around),
      `${field.name}: ${field.border} on ${field.around}`,
    ).toBeGreaterThanOrEqual(3)
  }
})

test('the inbox sign-in fields have borders with at least 3:1 contrast too', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  const fields = await fieldEdges(page.getByTestId('admin-login-form'))
  expect(fields.length).toBe(2)
  for (const field of fields)
    expect(
      contrast(field.border, field.around),
      `${field.name}: ${field.border} on ${field.around}`,
    ).toBeGreaterThanOrEqual(3)
})

for (const [width, height] of [
  [390, 844],
  [360, 640],
]) {
  test(`contact dialog at ${width}×${height}: fits the screen and scrolls inside itself`, async ({
    browser,
    baseURL,
  }) => {
    const context = await watchedContext(
      await browser.newContext({ baseURL, viewport: { width, height }, isMobile: true, hasTouch: true }),
    )
    const page = await context.newPage()
    for (const path of ['/linkedin-services', '/en/linkedin-services']) {
      await page.goto(path)
      await page.getByTestId('package-card').nth(1).getByRole('button').click()
      const dialog = page.getByTestId('contact-dialog')
      await expect(dialog).toBeVisible()
      const panel = page.getByTestId('contact-dialog-panel')
      // The animation settles (the panel rises into place) before measuring.
      await expect.poll(async () => (await box(panel)).y).toBe((await box(dialog)).y)
      const outer = await box(dialog)
      const inner = await box(panel)
      expect(outer.y, path).toBeGreaterThanOrEqual(0)
      expect(outer.y + outer.height, path).toBeLessThanOrEqual(height)
      expect(inner.y + inner.height, `${path}: the panel overflows the dialog`).toBeLessThanOrEqual(
        outer.y + outer.height + 0.5,
      )
      const cancel = page.getByTestId('contact-dialog-cancel')
      if (height >= 844) {
        // A common phone shows the whole form, Cancel included, without scrolling.
        const button = await box(cancel)
        expect(button.y + button.height, `${path}: Cancel is cut off`).toBeLessThanOrEqual(inner.y + inner.height)
      } else {
        // A small one scrolls the panel, not the page, down to Cancel.
        const pageScroll = await page.evaluate(() => window.scrollY)
        await panel.evaluate((element) => element.scrollTo({ top: element.scrollHeight, behavior: 'instant' }))
        const button = await box(cancel)
        expect(button.y + button.height, `${path}: Cancel out of reach`).toBeLessThanOrEqual(inner.y + inner.height)
        expect(button.y).toBeGreaterThanOrEqual(inner.y)
        expect(await panel.evaluate((element) => element.scrollTop)).toBeGreaterThan(0)
        expect(await page.evaluate(() => window.scrollY)).toBe(pageScroll)
      }
      await cancel.click()
      await expect(dialog).toBeHidden()
    }
    await context.close()
  })
}
