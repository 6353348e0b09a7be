import { expect, test } from './fixtures'

test('the mobile menu opens, lists every destination, closes on Escape and after navigating', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeHidden()
  const button = page.getByTestId('mobile-menu-button')
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await button.click()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  const menu = page.getByRole('navigation', { name: 'Navigation mobile' })
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('link')).toHaveCount(4 + 4 + 2)
  await expect(menu.getByRole('link').first()).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(button).toBeFocused()

  await button.click()
  await menu.getByRole('link', { name: 'À propos' }).click()
  await expect(page).toHaveURL(/\/about$/)
  await expect(menu).toBeHidden()
  await expect(button).toHaveAttribute('aria-expanded', 'false')

  await button.click()
  await menu.getByTestId('language-toggle').click()
  await expect(page).toHaveURL(/\/en\/about$/)
})

test('keyboard focus stays in the open mobile menu, both ways round', async ({ page }) => {
  await page.goto('/en')
  const button = page.getByTestId('mobile-menu-button')
  await button.click()
  const menu = page.locator('#mobile-menu')
  await expect(menu.getByRole('link').first()).toBeFocused()
  // The menu button (which closes it) and the panel's 10 links (services, pages, toggle, call to action).
  const inside = () =>
    page.evaluate(() => document.getElementById('mobile-menu')!.parentElement!.contains(document.activeElement))
  const stops = new Set<string>()
  for (let step = 0; step < 30; step++) {
    await page.keyboard.press('Tab')
    expect(await inside(), `Tab #${step + 1} left the menu`).toBe(true)
    stops.add(
      await page.evaluate(
        () => `${document.activeElement?.getAttribute('href')} ${document.activeElement?.textContent}`,
      ),
    )
  }
  expect(stops.size).toBe(11)
  for (let step = 0; step < 30; step++) {
    await page.keyboard.press('Shift+Tab')
    expect(await inside(), `Shift+Tab #${step + 1} left the menu`).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(button).toBeFocused()
})

test('the mobile call to action goes home and scrolls to the services', async ({ page }) => {
  await page.goto('/en/contact')
  await page.getByTestId('mobile-menu-button').click()
  await page.getByRole('navigation', { name: 'Mobile navigation' }).getByTestId('nav-cta').click()
  await expect(page).toHaveURL((url) => url.pathname === '/en')
  await expect
    .poll(() => page.locator('#services').evaluate((element) => Math.abs(element.getBoundingClientRect().top) < 200))
    .toBe(true)
})

// No page scrolls sideways on a phone: accessibility-reflow-spacing-motion.spec.ts's Reflow test checks every page at 320 px.
