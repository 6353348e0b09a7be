import { AT_REST, expect, test, watchedContext } from './fixtures'
import { LAYOUT_PATHS } from './public-routes'

/*
 * A page's first screen is drawn by the rules inlined in its <head> (app/first-screen.css) while the
 * browser waits for the site's whole stylesheet, linked right below that screen and after the footer
 * (components/layout/site-stylesheet.tsx). With that file held back, what the page shows must already
 * look as it will once the file has come: every element's computed style and box the same. And the
 * browser must not have read past the link: nothing below it exists yet, so the first frame holds the
 * first screen alone. Without JavaScript, so that only the stylesheet changes between the two looks.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
]
const PATHS = [...LAYOUT_PATHS, '/cette-page-n-existe-pas']

for (const { name, viewport } of SIZES) {
  test(`${name}: each layout's first screen looks the same before and after the whole stylesheet`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000)
    const context = await watchedContext(
      await browser.newContext({ baseURL, viewport, javaScriptEnabled: false, ...AT_REST }),
    )
    const page = await context.newPage()
    let held: Array<() => Promise<void>> = []
    await page.route('**/styles/site.*.css', async (route) => {
      held.push(() => route.continue())
    })
    const differences: string[] = []
    for (const path of PATHS) {
      held = []
      const loaded = page.goto(path, { waitUntil: 'load' })
      await expect.poll(() => held.length, `${path}: the page asks for the whole stylesheet`).toBeGreaterThan(0)
      // The browser has stopped at the link: everything above it is parsed. Reading styles and boxes lays it
      // out (a page without JavaScript runs no requestAnimationFrame).
      const before = await page.evaluate(async () => {
        await document.fonts.ready
        // The hero's entrance, at rest (reduced motion: a hundredth of a millisecond, once a frame comes).
        await Promise.all(document.getAnimations().map((animation) => animation.finished))
        const link = document.querySelector('link[rel="stylesheet"][href^="/styles/"]')!
        const above = [...document.body.querySelectorAll('*')].filter(
          (element) => element.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING,
        )
        const look = (element: Element) => {
          const style = getComputedStyle(element)
          const box = element.getBoundingClientRect()
          const values: Record<string, string> = {}
          // What is drawn: custom properties count only through the properties that read them. (The whole
          // sheet registers Tailwind's, some of which then stop inheriting, which nothing above the link reads.)
          for (const property of style)
            if (!property.startsWith('--')) values[property] = style.getPropertyValue(property)
          return { values, box: [box.x, box.y, box.width, box.height].map(Math.round).join(' ') }
        }
        const saved = above.map((element) => ({ element, ...look(element) }))
        ;(window as unknown as { firstScreen: unknown }).firstScreen = { saved, look }
        return {
          above: saved.length,
          // The last element read is the link: the browser has read nothing below it.
          lastRead: [...document.body.querySelectorAll('*')].at(-1) === link,
          sectionsBelow: document.querySelectorAll('.render-when-visible').length,
        }
      })
      expect(before.above, `${path}: elements above the link`).toBeGreaterThan(20)
      expect(before.lastRead, `${path}: the browser stopped reading at the link`).toBe(true)
      expect(before.sectionsBelow, `${path}: no section below the first screen is read yet`).toBe(0)
      for (const release of held) await release()
      await loaded
      differences.push(
        ...(
          await page.evaluate(async () => {
            await document.fonts.ready
            await Promise.all(document.getAnimations().map((animation) => animation.finished))
            type Look = { values: Record<string, string>; box: string }
            const { saved, look } = (
              window as unknown as {
                firstScreen: { saved: Array<Look & { element: Element }>; look: (element: Element) => Look }
              }
            ).firstScreen
            const LINK = 'link[rel="stylesheet"][href^="/styles/"]'
            const found: string[] = []
            for (const { element, values, box } of saved) {
              const name = `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`
              const now = look(element)
              // The link's ancestors (body, main) grow with what comes below it, and so may a flex or grid
              // item beside it (main, in a body that grows below the link): their sizes are left out.
              const holdsLink = (node: Element | null) => node?.querySelector(LINK) != null
              const parent = element.parentElement
              const grows =
                holdsLink(element) || (holdsLink(parent) && /flex|grid/.test(getComputedStyle(parent!).display))
              if (!grows && now.box !== box) found.push(`${name} box ${box} → ${now.box}`)
              for (const [property, value] of Object.entries(values)) {
                const sized = /(^|-)(width|height|size|origin)$/.test(property)
                if (now.values[property] !== value && !(grows && sized))
                  found.push(`${name} ${property}: ${value} → ${now.values[property]}`)
              }
            }
            return found.slice(0, 20)
          })
        ).map((difference) => `${path}: ${difference}`),
      )
    }
    expect(differences).toEqual([])
    await context.close()
  })
}

test('the whole stylesheet is a file a browser keeps: named after its content, immutable', async ({ request }) => {
  const home = await (await request.get('/en')).text()
  const links = [...home.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map(([, href]) => href)
  // One file, linked below the first screen and again after the footer.
  expect(new Set(links).size, links.join(', ')).toBe(1)
  expect(links[0]).toMatch(/^\/styles\/site\.[\w-]{12}\.css$/)
  const response = await request.get(links[0])
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^text\/css/)
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  // The whole sheet: the rules of the sections below the first screen, which the inlined ones leave
  // out, are in it (`scroll-mt-24`: where the header's links to those sections scroll to).
  const css = await response.text()
  expect(home).toMatch(/<section id="services" [^>]*class="[^"]*scroll-mt-24/)
  expect(css).toContain('.scroll-mt-24{')
  expect(home.slice(0, home.indexOf('<body'))).not.toContain('.scroll-mt-24{')
})
