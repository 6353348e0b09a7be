import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures'
import { parisDay } from '../../supabase/functions/_shared/french-date'
import { FRENCH_DATE_TIME, inboxOf, search, seedInbox, service, signIn, toastTitle } from './inbox-kit'

/*
 * What the admin reads in the hidden inbox: each message as it was sent (hostile HTML inert, invisible
 * characters named), the CSV export of a search, and what the page shows while the list loads, when it
 * fails and when it is empty. Against the local Supabase server (inbox-kit.ts), with this file's own
 * account and tagged messages.
 */

const inbox = inboxOf('reading')
const { TAG, ADMIN, XSS } = inbox

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox, { messages: true }))

test('the admin reads the inbox: count, newest first, dates, links, package, inert HTML; the session survives a reload', async ({
  page,
}) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await expect(toastTitle(page)).toHaveText('Connexion réussie')
  await expect(page.getByTestId('submission-count')).toContainText(/\d+ messages reçus/)
  await search(page, TAG)
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  const first = page.getByTestId('submission').first()
  await expect(first).toContainText('Zoé Dupont')
  await expect(first.locator('time')).toHaveText(new RegExp(`^${FRENCH_DATE_TIME}$`))
  await expect(first.getByTestId('submission-email')).toHaveAttribute(
    'href',
    new RegExp(`^mailto:zoe-${TAG}@example\\.fr\\?subject=`),
  )
  await expect(first.getByTestId('submission-phone')).toHaveAttribute('href', 'tel:0612345678')
  await expect(first.getByTestId('submission-package')).toHaveText('Forfait : Growth')
  await expect(first.getByTestId('submission-locale')).toHaveText('En anglais')
  const xss = page.getByTestId('submission').nth(1)
  await expect(xss.getByTestId('submission-locale')).toHaveCount(0)
  await expect(xss.getByTestId('submission-message')).toHaveText(XSS)
  expect(await xss.locator('img, script').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()

  await page.reload()
  await expect(page.getByTestId('submission').first()).toBeVisible()
  await expect(page.getByTestId('admin-login-form')).toHaveCount(0)
})

test('invisible characters in a message show as marks naming them, so nothing is reordered or hidden', async ({
  page,
}) => {
  await service
    .from('contact_submissions')
    .insert({
      name: `Marks ${TAG}`,
      email: `marks-${TAG}@example.fr`,
      message: `Ouvrez la pièce \u202egnp.exe\u200b ${TAG}\nMerci.`,
    })
    .throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, `marks-${TAG}`)
  const message = page.getByTestId('submission').first().getByTestId('submission-message')
  await expect(message.getByTestId('invisible-character')).toHaveText(['U+202E', 'U+200B'])
  await expect(message.getByTestId('invisible-character').first()).toHaveAttribute(
    'title',
    'Caractère invisible U+202E',
  )
  expect(await message.textContent()).toBe(`Ouvrez la pièce U+202Egnp.exeU+200B ${TAG}\nMerci.`)
})

test('CSV export of the current search, for French Excel: BOM, « ; », quoted, formula-safe, the phone as written', async ({
  page,
}) => {
  await service
    .from('contact_submissions')
    .insert({
      name: '=HYPERLINK("http://evil")',
      email: `csv-${TAG}@example.fr`,
      phone: '+33 6 12 34 56 78',
      message: `Ligne 1, "citée"\nLigne 2 — été ${TAG}`,
      locale: 'en',
    })
    .throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, `csv-${TAG}`)
  await expect(page.getByTestId('submission-count')).toContainText('1 message reçu')
  const before = new Date()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()])
  // Named after the day in Paris, not in UTC (an hour or two behind).
  expect([before, new Date()].map((at) => `messages-${parisDay(at)}.csv`)).toContain(download.suggestedFilename())
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.startsWith('\uFEFF"Date";"Nom";"Email"')).toBe(true)
  expect(csv).toContain(`"'=HYPERLINK(""http://evil"")";`)
  expect(csv).toContain(`;"=""+33 6 12 34 56 78""";"";"anglais";`)
  expect(csv.split('\r\n')[1]).toMatch(/^"\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}";/)
  expect(csv).toContain(`"Ligne 1, ""citée""\nLigne 2 — été ${TAG}"`)
  expect(csv.trimEnd().split('\r\n')).toHaveLength(2)
})

test('loading spinner, load failure and empty inbox', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await expect(page.getByTestId('submission').first()).toBeVisible()

  // The list request is slowed, then fails, then returns nothing: what the page shows each time.
  let mode: 'slow' | 'fail' | 'empty' = 'slow'
  await page.route('**/rest/v1/contact_submissions?*', async (route) => {
    const method = route.request().method()
    if (method !== 'GET' && method !== 'HEAD') return route.continue()
    if (mode === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      return route.continue()
    }
    if (mode === 'fail')
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"code":"XX000","message":"boom","details":null,"hint":null}',
      })
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'Content-Range': '*/0', 'Access-Control-Expose-Headers': 'Content-Range' },
      body: method === 'HEAD' ? '' : '[]',
    })
  })
  await page.reload()
  await expect(page.getByRole('status').filter({ hasText: 'Chargement des messages...' })).toBeVisible()
  await expect(page.getByTestId('submission').first()).toBeVisible()
  mode = 'fail'
  await page.reload()
  await expect(toastTitle(page)).toHaveText('Erreur lors du chargement des soumissions')
  await expect(page.getByText('Erreur lors du chargement des soumissions').first()).toBeVisible()
  mode = 'empty'
  await page.reload()
  await expect(page.getByTestId('empty-inbox')).toHaveText('Aucune soumission pour le moment')
  await expect(page.getByTestId('submission-count')).toHaveText('0 message reçu')

  // Signed in, but the role cannot be read when the page opens: said so, with a way to try again, not
  // a sign-in form that looks like being signed out.
  await page.route('**/rest/v1/user_roles?*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"XX000","message":"down"}' }),
  )
  await page.reload()
  await expect(page.getByTestId('admin-unreachable')).toHaveText(
    "Une erreur s'est produite. Veuillez réessayer plus tard.",
  )
  await expect(page.getByTestId('admin-login-form')).toHaveCount(0)
  await page.unroute('**/rest/v1/user_roles?*')
  await page.getByRole('button', { name: 'Réessayer' }).click()
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})
