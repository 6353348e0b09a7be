import { expect, type Locator, type Page } from '@playwright/test'

/** Presses Tab (or Shift+Tab) until `target` has the focus, at most `max` times: reaching a control
 *  by keyboard alone, as a person without a mouse does. Fails saying where the focus went instead.
 *  The target is looked up after each press: pages re-render (the Studio's lists do). */
export async function tabTo(page: Page, target: Locator, { max = 60, backwards = false } = {}) {
  const visited: string[] = []
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
    const where = await target
      .evaluate(
        (element) => {
          const active = document.activeElement
          if (active && (element === active || element.contains(active))) return null
          return active ? `${active.tagName.toLowerCase()} «${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 30)}»` : 'nothing'
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch((error: Error) => `(target not found: ${error.message.split('\n')[0]})`)
    if (where === null) return presses + 1
    visited.push(where)
  }
  expect(visited, `${max} presses of Tab did not reach ${target}`).toEqual([])
  return max
}
