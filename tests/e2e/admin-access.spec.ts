import { expect, test } from './fixtures'
import { inboxOf, seedInbox, signIn, toastTitle } from './inbox-kit'

/*
 * Who reaches the hidden inbox: the page is hidden from visitors and crawlers, sign-in says what went
 * wrong, a user without the admin role is refused, logout signs out, and repeated failures are
 * throttled. Against the local Supabase server (inbox-kit.ts), with this file's own accounts.
 */

const inbox = inboxOf('access')
const { TAG, ADMIN, MEMBER } = inbox

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox, { member: true }))

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

test('login messages: missing fields, wrong credentials; a sign-in that then succeeds clears the error', async ({
  page,
}) => {
  await page.goto('/admin-panel-2024')
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Veuillez remplir tous les champs')
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Veuillez remplir tous les champs')
  await page.getByLabel('Mot de passe').fill('wrong-password')
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(toastTitle(page)).toHaveText('Email ou mot de passe incorrect')
  // The right password now: only the success stays on screen, not the error beside it. Read once the
  // inbox shows, not waited for: the error would leave by itself after its 6 s on screen.
  await page.getByLabel('Mot de passe').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(page.getByTestId('logout')).toBeVisible()
  expect(await page.getByTestId('toast-title').allTextContents()).toEqual(['Connexion réussie'])
})

test('a signed-in user without the admin role is refused and signed out at once', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, MEMBER)
  await expect(toastTitle(page)).toHaveText('Accès non autorisé')
  await expect(page.getByTestId('admin-login-form')).toBeVisible()
  await expect(page.getByTestId('submission')).toHaveCount(0)
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('sb-')))).toEqual([])
})

test('logout returns to the login form and goes home, Supabase reachable or not; the inbox then asks to sign in again', async ({
  page,
}) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await expect(page.getByTestId('logout')).toBeVisible()
  await page.getByTestId('logout').click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/admin-panel-2024')
  await expect(page.getByTestId('admin-login-form')).toBeVisible()
  // Supabase unreachable at that moment: it cannot revoke the session, and this browser forgets it anyway.
  await signIn(page, ADMIN)
  await page.route('**/auth/v1/logout**', (route) => route.abort('connectionrefused'))
  await page.getByTestId('logout').click()
  await expect(page).toHaveURL(/\/$/)
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('sb-')))).toEqual([])
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
  await expect(page.getByTestId('toast-description').last()).toHaveText(
    'Veuillez patienter quelques minutes avant de réessayer.',
  )
})
