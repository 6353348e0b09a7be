import { AT_REST, expect, test, watchedContext } from './fixtures'
import { PAGE_LOOP_MS, PAGES, phonePage } from './accessibility-pages'

/*
 * WCAG 2.2 AA for readers who change how pages look or move, what no axe rule can check: reflow at
 * 320 px, text spacing, reduced motion.
 */

// Every page, for its words (a long one can push a page wider); 320 px stands for every phone width: the
// layout has no breakpoint below Tailwind's sm (640 px), so what fits at 320 fits wider.
test('1.4.10 Reflow: at 320 CSS px nothing scrolls sideways or is cut off, inbox included', async ({
  browser,
  baseURL,
}) => {
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
        .filter(
          (element) =>
            element.getBoundingClientRect().right > document.documentElement.clientWidth + 1 &&
            getComputedStyle(element).position !== 'fixed',
        )
        .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`)
        .slice(0, 5),
    }))
    if (overflow.page > 0 || overflow.elements.length)
      wide.push(`${url}: ${overflow.page} px too wide; ${overflow.elements.join(', ')}`)
  }
  await page.context().close()
  expect(wide).toEqual([])
})

/** Text cut off by a box that clips its overflow (visually hidden text, 1 px on purpose, aside). */
function cutText(): string[] {
  const cut: string[] = []
  for (const element of document.querySelectorAll<HTMLElement>('body *')) {
    const style = getComputedStyle(element)
    if (!/hidden|clip/.test(style.overflowX + style.overflowY) || element.clientWidth <= 1 || element.clientHeight <= 1)
      continue
    const box = element.getBoundingClientRect()
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('[aria-hidden="true"], .sr-only')) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const outside = [...range.getClientRects()].some(
        (rect) =>
          rect.width > 0 &&
          (rect.left < box.left - 1 ||
            rect.right > box.right + 1 ||
            rect.top < box.top - 1 ||
            rect.bottom > box.bottom + 1),
      )
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
  await page
    .locator('main p')
    .first()
    .evaluate((p) => Object.assign(p.style, { maxHeight: '1em', overflow: 'hidden' }))
  expect(await page.evaluate(cutText)).not.toEqual([])
  for (const url of [...PAGES, '/admin-panel-2024']) {
    await page.goto(url)
    // As a reader's style sheet or bookmarklet applies it: through the CSSOM, which the policy allows.
    await page.evaluate(() => {
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(
        '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }',
      )
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    })
    const found = await page.evaluate(cutText)
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    if (found.length || sideways > 0)
      clipped.push(`${url}: ${found.join(', ')}${sideways > 0 ? ` (${sideways} px sideways)` : ''}`)
  }
  expect(clipped).toEqual([])
})

test('2.3.3 motion: with reduced motion asked for, nothing animates and scrolling jumps; without, it glides', async ({
  browser,
  baseURL,
}) => {
  const running = async (reducedMotion: 'reduce' | 'no-preference') => {
    const context = await watchedContext(await browser.newContext({ baseURL, reducedMotion }))
    const page = await context.newPage()
    await page.goto('/')
    // The hero's words are the largest text: what moves them never fades them, so they are readable from
    // the first frame (a fade-in from opacity 0 made the header's brand the page's largest paint).
    const fadingWords = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target
          const words = [...document.querySelectorAll('#hero-title, #hero-title + p')]
          return target && words.some((element) => target.contains(element))
        })
        .filter((animation) =>
          (animation.effect as KeyframeEffect).getKeyframes().some((frame) => Number(frame.opacity ?? 1) < 1),
        )
        .map((animation) => (animation as CSSAnimation).animationName),
    )
    const moving: string[] = []
    // Down the whole page, so every on-scroll entrance has its chance to start.
    for (let y = 0; y < 12; y++) {
      await page.mouse.wheel(0, 700)
      await page.waitForTimeout(120)
      moving.push(
        ...(await page.evaluate(() =>
          document
            .getAnimations()
            .filter(
              (animation) =>
                animation.playState === 'running' && Number(animation.effect?.getComputedTiming().duration ?? 0) > 1,
            )
            .map(
              (animation) =>
                `${(animation as CSSAnimation).animationName ?? 'animation'} on ${(animation.effect as KeyframeEffect | null)?.target?.tagName.toLowerCase()}`,
            ),
        )),
      )
    }
    const behaviour = await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)
    await context.close()
    return { moving: [...new Set(moving)], behaviour, fadingWords }
  }
  const reduced = await running('reduce')
  expect(reduced).toEqual({ moving: [], behaviour: 'auto', fadingWords: [] })
  const full = await running('no-preference')
  expect(full.behaviour).toBe('smooth')
  expect(full.fadingWords, 'animations that fade the hero’s title or subtitle').toEqual([])
})
