import { createClient } from '@supabase/supabase-js'
import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'
import { LOCAL_SERVICE_ROLE_KEY } from '@plume/local-twins/defaults'
import { tabTo } from './keyboard'

/*
 * The hidden inbox in Chromium against the local Supabase server started by scripts/test.mjs. The
 * tests share that server with the contact-form tests, so their messages carry a unique tag and the
 * list is searched by it where counts matter.
 */

const supabaseUrl = process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321'
const service = createClient(supabaseUrl, LOCAL_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } })
const TAG = `tag${Date.now().toString(36)}`
const ADMIN = { email: `admin-${TAG}@example.fr`, password: 'Inbox-Admin-2026!' }
const MEMBER = { email: `member-${TAG}@example.fr`, password: 'Plain-Member-2026!' }
const XSS = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> ${TAG}`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  const admin = await service.auth.admin.createUser({ email: ADMIN.email, password: ADMIN.password, email_confirm: true })
  if (admin.error) throw admin.error
  await service.from('user_roles').insert({ user_id: admin.data.user.id, role: 'admin' }).throwOnError()
  const member = await service.auth.admin.createUser({ email: MEMBER.email, password: MEMBER.password, email_confirm: true })
  if (member.error) throw member.error
  // 55 tagged messages, one minute apart, in the future so they come first in the unfiltered list.
  const base = Date.now() + 24 * 3600_000
  const rows = Array.from({ length: 55 }, (_, i) => ({
    name: i === 0 ? 'Zoé Dupont' : `Client ${TAG} ${String(i).padStart(2, '0')}`,
    email: i === 0 ? `zoe-${TAG}@example.fr` : i % 5 === 0 ? `repeat-${TAG}@example.fr` : `c${i}-${TAG}@example.fr`,
    phone: i === 0 ? '06 12 34 56 78' : null,
    message: i === 1 ? XSS : `Message ${i} pour l'agence, ${TAG}.`,
    package: i === 0 ? 'Growth' : null,
    created_at: new Date(base - i * 60_000).toISOString(),
  }))
  await service.from('contact_submissions').insert(rows).throwOnError()
})

const toastTitle = (page: Page) => page.getByTestId('toast-title').last()

/** What has the keyboard focus: a message names its sender, anything else its tag and text. */
const focused = (page: Page) => page.evaluate(() => {
  const element = document.activeElement
  return element?.getAttribute('aria-label') ?? `${element?.tagName.toLowerCase()} ${element?.textContent?.slice(0, 40)}`
})

/** Types a search and waits until the inbox has asked the server for it (the input is debounced). */
async function search(page: Page, term: string) {
  const searched = page.waitForResponse((response) => response.url().includes('/rest/v1/contact_submissions') && decodeURIComponent(response.url()).includes(term))
  await page.getByLabel('Rechercher').fill(term)
  await searched
}

const unreadInDatabase = async () => (await service.from('contact_submissions').select('*', { count: 'exact', head: true }).eq('is_read', false).throwOnError()).count
const isRead = async (email: string) => (await service.from('contact_submissions').select('is_read').eq('email', email).single().throwOnError()).data.is_read

/**
 * The overall unread count on screen is the database's. The contact-form tests running beside these add
 * unread messages at any moment, so an attempt counts only when the database gave the same count
 * before and after the inbox asked for it (paging forth and back); else the inbox is asked again.
 */
async function expectUnreadCountOfDatabase(page: Page) {
  await expect(async () => {
    const before = await unreadInDatabase()
    await page.getByRole('button', { name: 'Suivant' }).click()
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
    const asked = page.waitForResponse((response) => response.url().includes('/rest/v1/contact_submissions') && response.url().includes('is_read=eq.false'))
    await page.getByRole('button', { name: 'Précédent' }).click()
    await asked
    const after = await unreadInDatabase()
    expect(after, 'a message arrived while the inbox was asking: asking again').toBe(before)
    await expect(page.getByTestId('unread-count')).toHaveText(new RegExp(`^${after} non lus?$`), { timeout: 5_000 })
  }).toPass({ timeout: 60_000 })
}

async function signIn(page: Page, credentials: { email: string; password: string }) {
  await page.getByLabel('Email').fill(credentials.email)
  await page.getByLabel('Mot de passe').fill(credentials.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
}

test('the page is hidden: noindex, and absent from the sitemap and robots.txt', async ({ page, request }) => {
  const response = await page.goto('/admin-panel-2024')
  expect(response?.headers()['x-robots-tag']).toContain('noindex')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain('admin-panel')
  expect(await (await request.get('/robots.txt')).text()).not.toContain('admin-panel')
  await page.goto('/')
  expect(await page.locator('a[href*="admin-panel"]').count()).toBe(0)
})

test('login messages: missing fields, wrong credentials', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Veuillez remplir tous les champs')
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Veuillez remplir tous les champs')
  await page.getByLabel('Mot de passe').fill('wrong-password')
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Email ou mot de passe incorrect')
})

test('a signed-in user without the admin role is refused and signed out at once', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, MEMBER)
  await expect(toastTitle(page)).toHaveText('Accès non autorisé')
  await expect(page.getByTestId('admin-login-form')).toBeVisible()
  await expect(page.getByTestId('submission')).toHaveCount(0)
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('sb-')))).toEqual([])
})

test('the admin reads the inbox: count, newest first, dates, links, package, inert HTML; the session survives a reload', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await expect(toastTitle(page)).toHaveText('Connexion réussie')
  await expect(page.getByTestId('submission-count')).toContainText(/\d+ messages reçus/)
  await search(page, TAG)
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  const first = page.getByTestId('submission').first()
  await expect(first).toContainText('Zoé Dupont')
  await expect(first.locator('time')).toHaveText(/^\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d{2}:\d{2}$/)
  await expect(first.getByTestId('submission-email')).toHaveAttribute('href', new RegExp(`^mailto:zoe-${TAG}@example\\.fr\\?subject=`))
  await expect(first.getByTestId('submission-phone')).toHaveAttribute('href', 'tel:0612345678')
  await expect(first.getByTestId('submission-package')).toHaveText('Forfait : Growth')
  const xss = page.getByTestId('submission').nth(1)
  await expect(xss.getByTestId('submission-message')).toHaveText(XSS)
  expect(await xss.locator('img, script').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()

  await page.reload()
  await expect(page.getByTestId('submission').first()).toBeVisible()
  await expect(page.getByTestId('admin-login-form')).toHaveCount(0)
})

test('the inbox works by keyboard alone: sign in, search, read state, pages, sign out', async ({ page }) => {
  test.setTimeout(90_000) // some 300 key presses, each checked
  await page.goto('/admin-panel-2024')
  await tabTo(page, page.getByLabel('Email'))
  await page.keyboard.type(ADMIN.email)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Mot de passe')).toBeFocused()
  await page.keyboard.type(ADMIN.password)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('submission-count')).toBeVisible()

  await tabTo(page, page.getByLabel('Rechercher'))
  const searched = page.waitForResponse((response) => decodeURIComponent(response.url()).includes(TAG))
  await page.keyboard.type(TAG)
  await searched
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 sur 2')

  const first = page.getByTestId('submission').first()
  await expect(first).toHaveAttribute('data-unread', 'true')
  await tabTo(page, first.getByRole('button', { name: 'Marquer comme lu' }))
  await page.keyboard.press('Enter')
  await expect(first).toHaveAttribute('data-unread', 'false')
  // The button keeps the focus and now says the opposite: Space turns it back.
  await expect(first.getByRole('button', { name: 'Marquer comme non lu' })).toBeFocused()
  await page.keyboard.press('Space')
  await expect(first).toHaveAttribute('data-unread', 'true')

  await tabTo(page, page.getByRole('button', { name: 'Suivant' }), { max: 260 })
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await tabTo(page, page.getByTestId('logout'), { backwards: true, max: 80 })
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/$/)
})

test('search, pagination, read/unread, delete and delete-all-from-address', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, TAG)
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(50)
  await page.getByRole('button', { name: 'Suivant' }).click()
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(5)
  await page.getByRole('button', { name: 'Précédent' }).click()
  await expect(page.getByTestId('submission')).toHaveCount(50)

  const zoe = page.getByTestId('submission').first()
  await expect(zoe).toHaveAttribute('data-unread', 'true')
  await expectUnreadCountOfDatabase(page)
  await zoe.getByRole('button', { name: 'Marquer comme lu' }).click()
  await expect(zoe).toHaveAttribute('data-unread', 'false')
  expect(await isRead(`zoe-${TAG}@example.fr`)).toBe(true)
  await expectUnreadCountOfDatabase(page)
  await zoe.getByRole('button', { name: 'Marquer comme non lu' }).click()
  await expect(zoe).toHaveAttribute('data-unread', 'true')

  page.once('dialog', (dialog) => dialog.dismiss())
  await zoe.getByRole('button', { name: 'Supprimer', exact: true }).click()
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  page.once('dialog', (dialog) => dialog.accept())
  await zoe.getByRole('button', { name: 'Supprimer', exact: true }).click()
  await expect(toastTitle(page)).toHaveText('Message supprimé')
  await expect(page.getByTestId('submission-count')).toContainText('54 messages reçus')

  await search(page, `repeat-${TAG}`)
  await expect(page.getByTestId('submission-count')).toContainText('10 messages reçus')
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByTestId('submission').first().getByRole('button', { name: 'Supprimer tous ses messages' }).click()
  await expect(toastTitle(page)).toHaveText('10 messages supprimés')
  await expect(page.getByTestId('empty-inbox')).toHaveText('Aucun message ne correspond à votre recherche')
  await expect(page.getByTestId('submission-count')).toContainText('0 message reçu')
  await expect.poll(() => focused(page)).toBe('h1 Messages')
  await expect(page.getByTestId('inbox-announcement')).toHaveText(`10 messages de repeat-${TAG}@example.fr supprimés. 0 message reçu.`)
})

test('deleting the only message of the last page steps back to the previous page', async ({ page }) => {
  const tag = `${TAG}last`
  const rows = Array.from({ length: 51 }, (_, i) => ({ name: `Client ${i}`, email: `l${i}-${tag}@example.fr`, message: `Message ${i}, ${tag}.` }))
  await service.from('contact_submissions').insert(rows).throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await page.getByRole('button', { name: 'Suivant' }).click()
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(1)
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByTestId('submission').first().getByRole('button', { name: 'Supprimer', exact: true }).click()
  await expect(page.getByTestId('submission-count')).toContainText('50 messages reçus')
  await expect(page.getByTestId('submission')).toHaveCount(50)
  await expect(page.getByTestId('empty-inbox')).toHaveCount(0)
  // The message before the deleted one is the last of the previous page: it takes the focus.
  await expect(page.getByTestId('submission').last()).toBeFocused()
})

test('after a deletion the focus goes to the next message, else the previous, else the heading, and the live region says what happened', async ({ page }) => {
  const tag = `${TAG}focus`
  const base = Date.now() + 48 * 3600_000
  const rows = ['Alice', 'Bruno', 'Chloé'].map((name, i) => ({ name: `${name} ${tag}`, email: `${name.toLowerCase()}-${tag}@example.fr`, message: `Message ${i}, ${tag}.`, created_at: new Date(base - i * 60_000).toISOString() }))
  await service.from('contact_submissions').insert(rows).throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await expect(page.getByTestId('submission-count')).toContainText('3 messages reçus')
  const announcement = page.getByTestId('inbox-announcement')
  await expect(announcement).toHaveText('')
  const remove = async (name: string) => {
    page.once('dialog', (dialog) => dialog.accept())
    await page.getByRole('article', { name: `Message de ${name} ${tag}` }).getByRole('button', { name: 'Supprimer', exact: true }).click()
  }

  // The first of three: the next one takes the focus.
  await remove('Alice')
  await expect(page.getByTestId('submission')).toHaveCount(2)
  await expect.poll(() => focused(page)).toBe(`Message de Bruno ${tag}`)
  await expect(announcement).toHaveText(`Message de Alice ${tag} supprimé. 2 messages reçus.`)
  await expect(announcement).toHaveAttribute('role', 'status')

  // The last one: there is no next, the previous one takes it.
  await remove('Chloé')
  await expect(page.getByTestId('submission')).toHaveCount(1)
  await expect.poll(() => focused(page)).toBe(`Message de Bruno ${tag}`)
  await expect(announcement).toHaveText(`Message de Chloé ${tag} supprimé. 1 message reçu.`)
  // From there, Tab reaches the message's own buttons.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('article', { name: `Message de Bruno ${tag}` }).getByRole('button', { name: 'Marquer comme lu' })).toBeFocused()

  // The only one left: the list's heading takes it.
  await remove('Bruno')
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  await expect.poll(() => focused(page)).toBe('h1 Messages')
  await expect(announcement).toHaveText(`Message de Bruno ${tag} supprimé. 0 message reçu.`)
})

test('invisible characters in a message show as marks naming them, so nothing is reordered or hidden', async ({ page }) => {
  await service
    .from('contact_submissions')
    .insert({ name: `Marks ${TAG}`, email: `marks-${TAG}@example.fr`, message: `Ouvrez la pièce \u202egnp.exe\u200b ${TAG}\nMerci.` })
    .throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, `marks-${TAG}`)
  const message = page.getByTestId('submission').first().getByTestId('submission-message')
  await expect(message.getByTestId('invisible-character')).toHaveText(['U+202E', 'U+200B'])
  await expect(message.getByTestId('invisible-character').first()).toHaveAttribute('title', 'Caractère invisible U+202E')
  expect(await message.textContent()).toBe(`Ouvrez la pièce U+202Egnp.exeU+200B ${TAG}\nMerci.`)
})

test('CSV export of the current search: quoted, formula-safe, UTF-8 with BOM', async ({ page }) => {
  await service
    .from('contact_submissions')
    .insert({ name: '=HYPERLINK("http://evil")', email: `csv-${TAG}@example.fr`, message: `Ligne 1, "citée"\nLigne 2 — été ${TAG}` })
    .throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, `csv-${TAG}`)
  await expect(page.getByTestId('submission-count')).toContainText('1 message reçu')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()])
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.startsWith('\uFEFF"Date","Nom","Email"')).toBe(true)
  expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`)
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
    if (mode === 'fail') return route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"XX000","message":"boom","details":null,"hint":null}' })
    return route.fulfill({ status: 200, contentType: 'application/json', headers: { 'Content-Range': '*/0', 'Access-Control-Expose-Headers': 'Content-Range' }, body: method === 'HEAD' ? '' : '[]' })
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
})

test('logout returns to the login form and goes home; the inbox then asks to sign in again', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await expect(page.getByTestId('logout')).toBeVisible()
  await page.getByTestId('logout').click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/admin-panel-2024')
  await expect(page.getByTestId('admin-login-form')).toBeVisible()
})

test('repeated failed sign-ins are throttled with a French message to wait', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  const target = { email: `throttled-${TAG}@example.fr`, password: 'Wrong-Password-1!' }
  for (let i = 0; i < 5; i++) {
    await signIn(page, target)
    await expect(toastTitle(page)).toHaveText('Email ou mot de passe incorrect')
  }
  await signIn(page, target)
  await expect(toastTitle(page)).toHaveText('Trop de tentatives de connexion')
  await expect(page.getByTestId('toast-description').last()).toHaveText('Veuillez patienter quelques minutes avant de réessayer.')
})
