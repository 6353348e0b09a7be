import { expect, type ElementHandle, type Locator, type Page } from '@playwright/test'

/** Presses Tab (or Shift+Tab) until `target` has the focus, at most `max` times: reaching a control
 *  by keyboard alone, as a person without a mouse does. Fails saying where the focus went instead.
 *  The target is resolved once and then checked by reference, resolved again only when a re-render
 *  has taken it out of the page (the Studio's lists do): resolving a role locator after every press
 *  cost more than the press itself on the inbox, whose list has a hundred buttons to name. */
export async function tabTo(page: Page, target: Locator, { max = 60, backwards = false } = {}) {
  const visited: string[] = []
  let handle: ElementHandle | null = null
  /** null once the focus is on (or in) the target; else where it is, or 'gone' when the target is. */
  const focusOn = (element: ElementHandle) =>
    element.evaluate((element) => {
      if (!element.isConnected) return 'gone'
      const active = document.activeElement
      if (active && (element === active || element.contains(active))) return null
      return active
        ? `${active.tagName.toLowerCase()} «${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 30)}»`
        : 'nothing'
    })
  try {
    for (let presses = 0; presses < max; presses++) {
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
      let where = handle ? await focusOn(handle).catch(() => 'gone') : 'gone'
      if (where === 'gone') {
        await handle?.dispose()
        handle = await target.elementHandle({ timeout: 5_000 }).catch(() => null)
        where = handle
          ? await focusOn(handle).catch((error: Error) => `(target lost: ${error.message.split('\n')[0]})`)
          : `(target not found: ${target})`
      }
      if (where === null) return presses + 1
      visited.push(where)
    }
  } finally {
    await handle?.dispose()
  }
  expect(visited, `${max} presses of Tab did not reach ${target}`).toEqual([])
  return max
}
