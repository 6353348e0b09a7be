import { createHash } from 'node:crypto'
import { connect } from 'node:net'
import { AT_REST, expect, test } from './fixtures'
import { firstLoadScripts } from '../../scripts/lib/first-load-scripts.ts'
import { localized, PUBLIC_PATHS } from './public-routes'

// Accessibility (axe, every rule tag these pages were once checked with and more) is checked page by
// page in accessibility-axe.spec.ts, on a desktop and on a phone: here, what a page says about itself.
// None of it moves: pages load at rest (fixtures.ts).
test.use(AT_REST)
for (const locale of ['fr', 'en'] as const) {
  for (const path of PUBLIC_PATHS) {
    const url = localized(path, locale)

    test(`${url} renders in ${locale} with SEO metadata, without a console error`, async ({ page, baseURL }) => {
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))

      const response = await page.goto(url)
      expect(response?.status()).toBe(200)
      await expect(page.locator('html')).toHaveAttribute('lang', locale)
      await expect(page.locator('h1')).toHaveCount(1)
      await expect(page.locator('h1')).toBeVisible()
      expect((await page.title()).length).toBeGreaterThan(5)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{20,}/)

      // Compared as parsed URLs: Next prints the site root without its trailing slash, the same URL.
      const absolute = (href: string | null) => new URL(href ?? 'invalid:').href
      expect(absolute(await page.locator('link[rel="canonical"]').getAttribute('href'))).toBe(
        absolute(`${baseURL}${url}`),
      )
      for (const [hreflang, target] of [
        ['fr', localized(path, 'fr')],
        ['en', localized(path, 'en')],
        ['x-default', localized(path, 'fr')],
      ]) {
        expect(absolute(await page.locator(`link[rel="alternate"][hreflang="${hreflang}"]`).getAttribute('href'))).toBe(
          absolute(`${baseURL}${target}`),
        )
      }
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/)
      // A shared link shows a picture: a 1200×630 PNG of this page in this language, served as is.
      const image = await page.locator('meta[property="og:image"]').getAttribute('content')
      expect(image).toMatch(/^https?:\/\//)
      await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', image ?? '')
      await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
      await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200')
      await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '630')
      await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', /.+/)
      const picture = await page.request.get(image ?? '', { maxRedirects: 0 })
      expect(picture.status()).toBe(200)
      expect(picture.headers()['content-type']).toBe('image/png')
      const png = await picture.body()
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
      if (locale === 'fr') {
        // French typography: no ordinary (breakable) space before : ; ! ? » or after «.
        const texts = [
          await page.locator('body').innerText(),
          await page.title(),
          (await page.locator('meta[name="description"]').getAttribute('content')) ?? '',
        ]
        for (const text of texts) expect(text.match(/.{0,20}(?: [:;!?»]|« ).{0,10}/g) ?? []).toEqual([])
      }

      // Language toggle shows the other language and leads to the same page in it.
      const toggle = page.getByTestId('language-toggle').first()
      const other = locale === 'fr' ? 'en' : 'fr'
      await expect(toggle).toHaveText(other.toUpperCase())
      await expect(toggle).toHaveAttribute('href', localized(path, other))

      expect(errors).toEqual([])
    })
  }
}

// The 404's words (messages/{fr,en}.json NotFound): its title, before the brand the layout adds, its text
// and its link home.
const NOT_FOUND_WORDS = {
  fr: {
    title: 'Page introuvable',
    description: "La page que vous cherchez n'existe pas ou a été déplacée.",
    backHome: "Retour à l'accueil",
  },
  en: {
    title: 'Page not found',
    description: 'The page you are looking for does not exist or has moved.',
    backHome: 'Back to home',
  },
}
for (const [url, home, locale] of [
  ['/cette-page-n-existe-pas', '/', 'fr'],
  ['/en/this-page-does-not-exist', '/en', 'en'],
  ['/linkedin-services/deeper/path', '/', 'fr'],
] as const) {
  test(`unknown path ${url} shows the 404 page with a link home`, async ({ page }) => {
    const response = await page.goto(url)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found')
    const link = page.getByTestId('not-found-home')
    await expect(link).toHaveAttribute('href', home)
    await link.click()
    await expect(page).toHaveURL((target) => target.pathname === home)
  })

  test(`unknown path ${url} is a 404 in ${locale} in the server's HTML, before any script runs`, async ({
    request,
  }) => {
    const response = await request.get(url)
    expect(response.status()).toBe(404)
    // What a browser without JavaScript shows: the document less its scripts, which carry the page's data
    // too (Next's error document had the 404's words only there, and no lang).
    const html = (await response.text())
      .replace(/<script\b[\s\S]*?<\/script>/g, '')
      .replaceAll('&#x27;', "'")
      .replaceAll('&amp;', '&')
    const { title, description, backHome } = NOT_FOUND_WORDS[locale]
    expect(html).toMatch(new RegExp(`<html lang="${locale}"[ >]`))
    expect(html).toMatch(new RegExp(`<title>${title} \\| [^<]+</title>`))
    expect(html).toMatch(/<h1[^>]*>Oops! Page not found<\/h1>/)
    expect(html).toContain(`>${description}</p>`)
    const link = html.match(/<a [^>]*data-testid="not-found-home"[^>]*>([^<]*)<\/a>/)
    expect(link?.[0]).toContain(`href="${home}"`)
    expect(link?.[1]).toBe(backHome)
  })
}

test('each page has its own share picture in each language, drawn from its title', async ({ request }) => {
  const meta = (html: string, property: string) =>
    html.match(new RegExp(`<meta property="${property}" content="([^"]*)"`))?.[1] ?? ''
  const pictures = new Map<string, string>() // picture hash → the og:title it shows
  for (const locale of ['fr', 'en'] as const) {
    for (const path of PUBLIC_PATHS) {
      const html = await (await request.get(localized(path, locale))).text()
      const [title, image] = [meta(html, 'og:title'), meta(html, 'og:image')]
      expect(new URL(image).pathname).toBe(
        localized(path === '/' ? '/share-image.png' : `${path}/share-image.png`, locale),
      )
      const hash = createHash('sha256')
        .update(await (await request.get(image)).body())
        .digest('hex')
      expect(pictures.get(hash) ?? title, `${localized(path, locale)} shows the picture of another page`).toBe(title)
      pictures.set(hash, title)
    }
  }
  // One picture per distinct title: "Contact" reads the same in both languages, every other title differs.
  expect(pictures.size).toBe(17)
})

test('every page sends the security headers', async ({ request }) => {
  for (const url of ['/', '/en/about', '/sitemap.xml']) {
    const response = await request.get(url)
    const headers = response.headers()
    expect(headers['strict-transport-security']).toContain('max-age=')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'")
    expect(headers['permissions-policy']).toContain('camera=()')
  }
})

test('sitemap lists every public page in both languages, robots points to it, private routes stay out', async ({
  request,
  baseURL,
}) => {
  const sitemap = await (await request.get('/sitemap.xml')).text()
  for (const path of PUBLIC_PATHS) {
    expect(sitemap).toContain(`<loc>${baseURL}${localized(path, 'fr')}</loc>`)
    expect(sitemap).toContain(`<loc>${baseURL}${localized(path, 'en')}</loc>`)
  }
  expect(sitemap).not.toContain('studio')
  expect(sitemap).not.toContain('admin')
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
  expect(robots).not.toContain('admin')
})

test('the scripts a public page loads at once are marked for eager background compilation', async ({ request }) => {
  for (const url of ['/', '/en/contact']) {
    const html = await (await request.get(url)).text()
    const scripts = firstLoadScripts(html)
    expect(scripts.length).toBeGreaterThan(3)
    for (const src of scripts)
      expect((await (await request.get(src)).text()).startsWith('//# allFunctionsCalledOnLoad\n'), src).toBe(true)
  }
})

test('the home page carries ProfessionalService JSON-LD', async ({ page }) => {
  await page.goto('/')
  const json = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  expect(json['@type']).toBe('ProfessionalService')
  expect(json.address.addressLocality).toBe('Paris')
  expect(json.email).toMatch(/@/)
})

test('the studio route, in a browser that does not trust the Content Lake’s certificate yet, says within seconds what to do', async ({
  page,
}) => {
  // This browser does not ignore certificate errors, as a person's would not before trusting it. The
  // Studio's own answer to that differs between Chromium releases (a « Network error » after retries, or
  // a spinner for minutes on 150): our notice comes first, naming the command (docs/sanity.md).
  const response = await page.goto('/studio')
  expect(response?.status()).toBe(200)
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  const notice = page.getByRole('alert').filter({ hasText: 'Le Studio ne peut pas joindre l’API de contenu' })
  await expect(notice).toBeVisible({ timeout: 30_000 })
  await expect(notice).toContainText('npm run cert:trust')
  // Both hosts the Studio calls, the project's (content) and the API's (sign-in): a warning accepted for
  // one host name leaves the other refused.
  await expect(notice.getByRole('link')).toHaveText([
    /^https:\/\/\w+\.localhost:\d+\/v1\/ping$/,
    /^https:\/\/localhost:\d+\/v1\/ping$/,
  ])
  await expect(notice.getByRole('button', { name: 'Recharger le Studio' })).toBeVisible()
})

test('the studio route, with the Content Lake answering 502, says the service is unavailable instead of a silent spinner', async ({
  page,
}) => {
  // A gateway in front of the API answering for it (the Studio alone would spin and retry, saying nothing).
  await page.route('**/v1/ping', (route) =>
    route.fulfill({ status: 502, headers: { 'Access-Control-Allow-Origin': '*' }, body: 'Bad gateway' }),
  )
  await page.goto('/studio')
  const notice = page.getByRole('alert').filter({ hasText: 'L’API de contenu répond par une erreur (502' })
  await expect(notice).toBeVisible({ timeout: 30_000 })
  await expect(notice).toContainText('momentanément indisponible')
  await expect(notice.getByRole('button', { name: 'Recharger le Studio' })).toBeVisible()
})

/** Sends one request line as written (Playwright and fetch would normalise `*` and `%ff`); resolves to its status. */
function rawStatus(baseURL: string, method: string, target: string) {
  const { hostname, port } = new URL(baseURL)
  return new Promise<number>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
    )
    let head = ''
    socket.on('data', (chunk) => (head += chunk.toString('latin1')))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

test('malformed request targets get 400, not 500 (issue 11): `*` and paths whose percent-encoding does not decode', async ({
  baseURL,
}) => {
  for (const [method, target] of [
    ['GET', '*'],
    ['OPTIONS', '*'],
    ['GET', '/%ff'],
    ['GET', '/en/%ff'],
    ['GET', '/%E0%A4%A'],
    ['GET', '/api/%ff'],
  ]) {
    expect(await rawStatus(baseURL!, method, target), `${method} ${target}`).toBe(400)
  }
  // Encoded paths that do decode are ordinary requests: a page, or the 404 page.
  expect(await rawStatus(baseURL!, 'GET', '/en/contact?utm=%ff')).toBe(200)
  expect(await rawStatus(baseURL!, 'GET', '/caf%C3%A9')).toBe(404)
})
