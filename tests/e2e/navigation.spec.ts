import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'
import { SERVICE_SLUGS } from './public-routes'

async function isInViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const rect = element.getBoundingClientRect()
    return rect.top < window.innerHeight && rect.bottom > 0 && Math.abs(rect.top) < window.innerHeight / 2
  })
}

test('brand links home from any page', async ({ page }) => {
  await page.goto('/about')
  await page.getByTestId('brand').click()
  await expect(page).toHaveURL((url) => url.pathname === '/')
})

test('services dropdown opens on hover and lists the four service pages', async ({ page }) => {
  await page.goto('/')
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  const button = nav.getByRole('button', { name: 'Services' })
  const menu = page.getByTestId('services-menu')
  await expect(menu).toBeHidden()
  await button.hover()
  await expect(menu).toBeVisible()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  const links = menu.getByRole('link')
  await expect(links).toHaveCount(4)
  expect(await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))).toEqual(
    SERVICE_SLUGS.map((slug) => `/${slug}`),
  )
  await page.mouse.move(5, 700)
  await expect(menu).toBeHidden()
})

test('services dropdown: the click that follows the hover leaves it open, a second click closes it', async ({
  page,
}) => {
  await page.goto('/')
  const button = page
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('button', { name: 'Services' })
  const menu = page.getByTestId('services-menu')
  await button.hover()
  await expect(menu).toBeVisible()
  await button.click()
  await expect(menu).toBeVisible()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await button.click()
  await expect(menu).toBeHidden()
  await button.click()
  await expect(menu).toBeVisible()
})

test('services dropdown works from the keyboard and by tap', async ({ page }) => {
  await page.goto('/en')
  const button = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Services' })
  const menu = page.getByTestId('services-menu')
  await button.focus()
  await page.keyboard.press('ArrowDown')
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('link').first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(menu.getByRole('link').nth(1)).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(menu).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(menu).toBeHidden()
  // A tap (click without hover first) toggles too, and choosing an entry navigates.
  await button.dispatchEvent('click')
  await expect(menu).toBeVisible()
  await menu.getByRole('link').nth(2).click()
  await expect(page).toHaveURL(/\/en\/campagnes-email$/)
  await expect(page.getByTestId('service-highlight')).toContainText('42')
})

test('language toggle leads to the same page in the other language and back', async ({ page }) => {
  await page.goto('/redaction-web')
  const toggle = page.getByTestId('language-toggle').first()
  await expect(toggle).toHaveText('EN')
  await toggle.click()
  await expect(page).toHaveURL(/\/en\/redaction-web$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByTestId('language-toggle').first()).toHaveText('FR')
  await page.getByTestId('language-toggle').first().click()
  await expect(page).toHaveURL((url) => url.pathname === '/redaction-web')
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
})

test('navigation call to action goes home and then scrolls to the services', async ({ page }) => {
  await page.goto('/about')
  await page.getByTestId('nav-cta').first().click()
  await expect(page).toHaveURL((url) => url.pathname === '/')
  await expect.poll(() => isInViewport(page, '#services')).toBe(true)
})

test('anchor links reach the benefits and testimonials sections from another page', async ({ page }) => {
  await page.goto('/contact')
  const nav = page.getByRole('navigation', { name: 'Navigation principale' })
  await nav.getByRole('link', { name: 'Avantages' }).click()
  await expect(page).toHaveURL(/\/#benefits$/)
  await expect.poll(() => isInViewport(page, '#benefits')).toBe(true)
  await nav.getByRole('link', { name: 'Témoignages' }).click()
  await expect.poll(() => isInViewport(page, '#testimonials')).toBe(true)
})

test('every route change starts at the top of the page', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('contentinfo').scrollIntoViewIfNeeded()
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500)
  await page.getByRole('contentinfo').getByRole('link', { name: 'Mentions légales' }).click()
  await expect(page).toHaveURL(/\/legal-notice$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
})

test('the hero button scrolls to the services section', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('hero-cta').click()
  await expect.poll(() => isInViewport(page, '#services')).toBe(true)
})

test('home shows six services, six benefits, seven logos and three rated testimonials', async ({ page }) => {
  await page.goto('/')
  await expect(page.locator('#services li')).toHaveCount(6)
  await expect(page.locator('#services a[href^="/"]')).toHaveCount(4)
  await expect(page.locator('#benefits li')).toHaveCount(6)
  const logos = page.locator('section[aria-labelledby="clients-title"] img')
  await expect(logos).toHaveCount(7)
  for (const logo of await logos.all()) {
    await logo.scrollIntoViewIfNeeded()
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await expect(logo).toHaveAttribute('alt', /.+/)
  }
  const testimonials = page.getByTestId('testimonial')
  await expect(testimonials).toHaveCount(3)
  const filled = await testimonials.evaluateAll((items) =>
    items.map((item) => item.querySelectorAll('[data-filled="true"]').length),
  )
  expect(filled).toEqual([4, 4, 5])
  await expect(testimonials.first().getByRole('img')).toHaveAttribute('aria-label', 'Note\u00a0: 4 sur 5')
})

test('a service page: hero button scrolls to the packages, the middle one is popular', async ({ page }) => {
  await page.goto('/linkedin-services')
  await page.getByTestId('service-hero-cta').click()
  await expect.poll(() => isInViewport(page, '#packages')).toBe(true)
  const cards = page.getByTestId('package-card')
  await expect(cards).toHaveCount(3)
  expect(await cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-featured')))).toEqual([
    'false',
    'true',
    'false',
  ])
  await expect(cards.nth(1).getByTestId('popular-badge')).toBeVisible()
  await expect(cards.nth(0).getByTestId('popular-badge')).toHaveCount(0)
  await expect(cards.nth(0).getByRole('heading')).toHaveText('Starter')
  await expect(cards.nth(1).getByRole('heading')).toHaveText('Professional')
  await expect(cards.nth(2).getByRole('heading')).toHaveText('Executive')
  await expect(page.locator('main')).not.toContainText(/\d\s?€|€\s?\d/)
})

test('choosing a package opens the contact dialog, which remembers the package and closes every way', async ({
  page,
}) => {
  await page.goto('/strategie-contenu')
  const choose = page.getByTestId('package-card').nth(1).getByRole('button')
  await choose.click()
  const dialog = page.getByTestId('contact-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Parlons de votre projet')
  await expect(page.getByTestId('contact-dialog-package')).toHaveText('Forfait choisi\u00a0: Advanced')

  // Focus stays inside the dialog.
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(choose).toBeFocused()

  await page.getByTestId('package-card').nth(2).getByRole('button').click()
  await expect(page.getByTestId('contact-dialog-package')).toHaveText('Forfait choisi\u00a0: Enterprise')
  await page.getByTestId('contact-dialog-close').click()
  await expect(dialog).toBeHidden()

  await page.getByTestId('package-card').nth(0).getByRole('button').click()
  await page.getByTestId('contact-dialog-cancel').click()
  await expect(dialog).toBeHidden()

  // The closing call to action opens it without a package.
  await page.locator('section[aria-labelledby="service-cta-title"]').getByRole('button').click()
  await expect(dialog).toBeVisible()
  await expect(page.getByTestId('contact-dialog-package')).toHaveCount(0)
})

test('the about page has the founder photo, 3 journey cards, 2 passions, 3 values and a button to /contact', async ({
  page,
}) => {
  await page.goto('/en/about')
  await expect
    .poll(() => page.getByTestId('founder-photo').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)
  await expect(page.getByTestId('journey-card')).toHaveCount(3)
  await expect(page.getByTestId('passion-card')).toHaveCount(2)
  await expect(page.getByTestId('value-card')).toHaveCount(3)
  await page.getByTestId('about-contact-button').click()
  await expect(page).toHaveURL(/\/en\/contact$/)
})

test('the contact page shows the details and the why-choose-us block', async ({ page }) => {
  await page.goto('/contact')
  await expect(page.locator('main a[href^="mailto:"]').first()).toBeVisible()
  await expect(page.locator('main a[href^="tel:"]').first()).toBeVisible()
  await expect(page.locator('main')).toContainText('Paris')
  const why = page.getByTestId('why-card')
  await expect(why).toHaveCount(3)
  await expect(why.nth(0)).toContainText('24h')
  await expect(why.nth(1)).toContainText('20+')
  await expect(why.nth(2)).toContainText('+250')
})

test('the footer links every page of the spec, the social networks and says © 2025', async ({ page }) => {
  await page.goto('/')
  const footer = page.getByRole('contentinfo')
  for (const href of [
    ...SERVICE_SLUGS.map((slug) => `/${slug}`),
    '/about',
    '/contact',
    '/legal-notice',
    '/privacy-policy',
  ]) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1)
  }
  await expect(footer.locator('a[href*="linkedin.com"]')).toHaveCount(1)
  await expect(footer.locator('a[href*="instagram.com"]')).toHaveCount(1)
  await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1)
  await expect(footer).toContainText('© 2025')
  await expect(page.locator('a[href*="calendly.com"]').first()).toBeVisible()
})

test('the privacy policy cites the GDPR rights', async ({ page }) => {
  await page.goto('/en/privacy-policy')
  await expect(page.getByTestId('legal-section')).toHaveCount(4)
  const text = (await page.locator('main').textContent())?.toLowerCase() ?? ''
  for (const right of ['access', 'rectification', 'portability']) expect(text).toContain(right)
  expect(text).toMatch(/erasure|deletion/)
  await page.goto('/legal-notice')
  await expect(page.getByTestId('legal-section')).toHaveCount(3)
})
