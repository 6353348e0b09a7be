import type { Page } from '@playwright/test'
import { cspSource } from '../../lib/security/content-security-policy'
import { AT_REST, expect, test } from './fixtures'
import { gradeOf } from './observatory'
import { LAYOUT_PATHS, PUBLIC_PATHS, localized } from './public-routes'

/*
 * The site as a visitor meets it, under each way of serving the one build: the test command runs this
 * file against `npm start`'s server (server/main.ts), plain `next start`, `node .next/standalone/server.js`
 * and the folder the container image holds, started with the image's command (SERVING_MODE names it).
 * Each way proves it serves and hydrates under the policy it sends (fixtures.ts fails any test on a
 * policy violation), a policy that lets the browser reach Supabase, and navigates through its RSC
 * answers; what the pages do (the contact form storing a message among it) is the other files' to
 * prove, against `npm start`. That server hydrates every page (each has inline scripts of its own,
 * hashed into its policy); the others one page of each layout, in turn in each language.
 */

const mode = process.env.SERVING_MODE ?? 'npm start'
// Only Next.js serving the build alone (next start, the standalone folder's own server.js) sends the
// configuration's portable policy as is; our server, in a checkout or in the image, completes it.
const strictPolicy = mode === 'npm start' || mode === 'container image'
const HYDRATED_PATHS =
  mode === 'npm start'
    ? PUBLIC_PATHS.flatMap((path) => [localized(path, 'fr'), localized(path, 'en')])
    : LAYOUT_PATHS.map((path, index) => localized(path, index % 2 === 0 ? 'fr' : 'en'))
// The browser sends the contact form to Supabase itself: every policy must let it connect there, as the
// policy writes an origin. The form itself is contact-form.spec.ts's to prove.
const supabaseSource = cspSource(process.env.NEXT_PUBLIC_SUPABASE_URL ?? 'http://127.0.0.1:54321')

/** React has taken over the document (hydrateRoot marks its container). */
const hydrated = (page: Page) =>
  page.evaluate(() => Object.keys(document).some((key) => key.startsWith('__reactContainer$')))

test.describe(`served by ${mode}`, () => {
  test('its pages hydrate under the policy each is sent with', async ({ page }) => {
    // A ceiling that catches a hang, per page: 20 pages in one test, beside the Studio's tests on 2 cores,
    // once took 2 min for pages that each hydrated (120 s for the whole loop timed out mid-page).
    test.setTimeout(HYDRATED_PATHS.length * 15_000)
    // At rest (fixtures.ts): hydration is what this loop checks; the tests below interact with the
    // pages as they move.
    await page.emulateMedia(AT_REST)
    for (const path of HYDRATED_PATHS) {
      const response = await page.goto(path)
      expect(response?.status(), path).toBe(200)
      const policy = (await response!.headerValue('content-security-policy')) ?? ''
      const scriptSrc = policy.match(/script-src [^;]+/)?.[0] ?? ''
      if (strictPolicy) {
        expect(scriptSrc, path).toMatch(/'sha256-/)
        expect(policy, path).not.toContain("'unsafe-inline'")
      } else {
        expect(scriptSrc, path).toBe("script-src 'self' 'unsafe-inline'")
      }
      const connectSrc = policy.match(/connect-src [^;]+/)?.[0].split(' ') ?? []
      expect(connectSrc, path).toContain(supabaseSource)
      await expect.poll(() => hydrated(page), { message: `${path} hydrates` }).toBe(true)
    }
  })

  test('the grade MDN HTTP Observatory’s code gives its pages, the inbox and the Studio', async ({
    request,
    baseURL,
  }) => {
    const scores: string[] = []
    for (const path of ['/', '/en/about', '/admin-panel-2024', '/studio']) {
      const { response, result } = await gradeOf(request, baseURL!, path)
      expect(response.status, path).toBe(200)
      scores.push(`${path} ${result.grade} ${result.score}`)
      if (strictPolicy) {
        expect([path, result.grade, result.score >= 120]).toEqual([path, 'A+', true])
      } else {
        // The portable policy allows inline scripts: the Observatory's CSP test costs it 20 points.
        expect([path, result.grade, result.score, result.tests['content-security-policy'].result]).toEqual([
          path,
          'B+',
          80,
          'csp-implemented-with-unsafe-inline',
        ])
      }
    }
    test.info().annotations.push({ type: `Observatory (${mode})`, description: scores.join('; ') })
  })

  test('an address whose percent-encoding does not decode is a 400 in the site’s words, not a bare 500', async ({
    request,
  }) => {
    // A link cut in the middle of a character. Next.js's router fails on it: our server turns it away
    // first, and under the others proxy.ts does.
    for (const path of ['/%ff', '/en/%E0%A4%A']) {
      const response = await request.get(path)
      expect([path, response.status()]).toEqual([path, 400])
      expect(await response.text()).toMatch(/^Adresse invalide : le site ne peut pas la lire\.\nBad Request: /)
      expect(response.headers()['x-content-type-options']).toBe('nosniff')
    }
  })

  test('services menu and language toggle navigate through the server’s RSC answers', async ({ page }) => {
    await page.goto('/')
    await expect.poll(() => hydrated(page)).toBe(true)
    const services = page
      .getByRole('navigation', { name: 'Navigation principale' })
      .getByRole('button', { name: 'Services' })
    await services.hover()
    const menu = page.getByTestId('services-menu')
    await expect(menu).toBeVisible()
    await menu.getByRole('link').first().click()
    await expect(page).toHaveURL(/\/linkedin-services$/)

    await page.getByTestId('language-toggle').first().click()
    await expect(page).toHaveURL(/\/en\/linkedin-services$/)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.getByTestId('language-toggle').first().click()
    await expect(page).toHaveURL((url) => url.pathname === '/linkedin-services')
  })
})
