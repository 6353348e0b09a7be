import { createClient } from '@supabase/supabase-js'
import {
  emailsAbout,
  expectNoErrorLogged,
  expectUncoveredByToasts,
  fill,
  functionCalls,
  toastDescription,
  toastTitle,
  uniqueEmail,
  waitFillTime,
} from './contact-kit'
import { expect, serviceRoleKey, test } from './fixtures'

/*
 * The contact form in Chromium against the local Supabase server that scripts/test.ts started:
 * both variants, every rule message, the anti-bot checks, the cooldown, success and failure. The
 * agency's notification goes to the local mail viewer started with it (MAIL_VIEWER_URL).
 */

const supabaseUrl = process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321'
const service = createClient(supabaseUrl, serviceRoleKey(), {
  auth: { persistSession: false, autoRefreshToken: false },
})

async function storedFor(email: string) {
  const { data, error } = await service.from('contact_submissions').select('*').eq('email', email)
  if (error) throw error
  return data
}

test.describe('contact page form', () => {
  test('shows every rule message, and "Erreur de validation" with the first one', async ({ page }) => {
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Erreur de validation')
    await expect(toastDescription(page)).toHaveText('Le nom doit contenir au moins 2 caractères')
    await expect(form.getByText('Adresse email invalide')).toBeVisible()
    await expect(form.getByText('Le message doit contenir au moins 10 caractères')).toBeVisible()

    const cases: [Parameters<typeof fill>[2], string][] = [
      [{ name: ' A ' }, 'Le nom doit contenir au moins 2 caractères'],
      [{ name: 'N'.repeat(101) }, 'Le nom doit contenir moins de 100 caractères'],
      [{ name: 'Camille', email: 'camille@exemple' }, 'Adresse email invalide'],
      [{ email: `${'a'.repeat(250)}@exemple.fr` }, "L'email doit contenir moins de 255 caractères"],
      [{ email: 'camille@exemple.fr', phone: '0'.repeat(21) }, 'Le numéro de téléphone est trop long'],
      [{ phone: '', message: 'Trop cour' }, 'Le message doit contenir au moins 10 caractères'],
      [{ message: 'm'.repeat(1001) }, 'Le message doit contenir moins de 1000 caractères'],
    ]
    for (const [values, message] of cases) {
      await fill(page, form, values)
      await form.getByRole('button', { name: 'Envoyer le message' }).click()
      await expect(toastDescription(page)).toHaveText(message)
      // Each refusal replaces the last one's toast: one on screen, not a pile.
      await expect(page.getByTestId('toast-title')).toHaveText(['Erreur de validation'])
      await expect(form.getByText(message, { exact: true })).toBeVisible()
    }
  })

  test('invisible characters in the name or the email are refused with a message saying so, nothing stored', async ({
    page,
  }) => {
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    const email = uniqueEmail('invisible')
    await fill(page, form, {
      name: 'Bob \u202egnp.exe',
      email,
      message: 'Un message ordinaire, envoyé par un imposteur.',
    })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Erreur de validation')
    await expect(toastDescription(page)).toHaveText('Le nom ne doit pas contenir de caractères invisibles')
    await fill(page, form, { name: 'Bob Martin', email: email.replace('@', '\u200b@') })
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastDescription(page)).toHaveText("L'email ne doit pas contenir de caractères invisibles")
    await expect(form.getByText("L'email ne doit pas contenir de caractères invisibles", { exact: true })).toBeVisible()
    expect(await storedFor(email)).toHaveLength(0)
  })

  test('the toast of a refused message leaves the Send button uncovered, on a desktop and on a phone', async ({
    page,
  }) => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport)
      await page.goto('/contact')
      const form = page.getByTestId('contact-form-page')
      const send = form.getByRole('button', { name: 'Envoyer le message' })
      await fill(page, form, { name: 'Camille Martin', email: uniqueEmail('toast'), message: 'Court' })
      await waitFillTime(page)
      // Send at the very bottom of the window, where toasts used to come in; the refused field (the
      // message, just above it) is on screen, so focusing it scrolls nothing.
      await send.evaluate((button) =>
        window.scrollBy(0, button.getBoundingClientRect().bottom - window.innerHeight + 8),
      )
      await send.click()
      await expect(toastDescription(page)).toHaveText('Le message doit contenir au moins 10 caractères')
      await expectUncoveredByToasts(page, send)
    }
  })

  test('a short phone is fine on the page (only the dialog asks for 8 digits); the success replaces the refusal corrected', async ({
    page,
  }) => {
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    const email = uniqueEmail('short-phone')
    await fill(page, form, { name: 'Camille Martin', email, phone: '0612', message: 'Bonjour' })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Erreur de validation')
    await fill(page, form, { message: 'Bonjour, un projet LinkedIn à discuter.' })
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(page.getByTestId('toast-title')).toHaveText(['Message envoyé avec succès!'])
    expect(await storedFor(email)).toHaveLength(1)
  })

  test('sends: disabled fields and "Envoi en cours..." while sending, success toast, reset, stored, agency notified, no error logged; then the 60 s cooldown', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    const email = uniqueEmail('page')
    // Hold the insert for a moment so the sending state can be seen.
    await page.route('**/rest/v1/contact_submissions', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800))
      await route.continue()
    })
    await fill(page, form, {
      name: '  Camille Martin ',
      email,
      phone: '06 12 34 56 78',
      message: 'Bonjour, nous cherchons une stratégie de contenu.',
    })
    await waitFillTime(page)
    const errorsBefore = consoleErrors.length
    const calls = functionCalls(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(form.getByRole('button', { name: 'Envoi en cours...' })).toBeVisible()
    await expect(form.getByLabel(/^Nom \*/)).toBeDisabled()
    await expect(toastTitle(page)).toHaveText('Message envoyé avec succès!')
    await expect(toastDescription(page)).toHaveText('Nous vous répondrons dans les plus brefs délais.')
    await expect(form.getByLabel(/^Nom \*/)).toHaveValue('')
    await expect(form.getByLabel(/^Message \*/)).toHaveValue('')
    const rows = await storedFor(email)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ name: 'Camille Martin', phone: '06 12 34 56 78', package: null })
    // The agency is notified of the contact page's messages too (the original forgot to), in the local mail viewer.
    await expect
      .poll(async () => (await emailsAbout(email)).map((sent) => sent.subject))
      .toEqual(['Nouveau message de Camille Martin'])
    expect(calls, 'the page asks for no notification: the database does').toEqual([])
    await expectNoErrorLogged(page, consoleErrors, errorsBefore)

    await fill(page, form, { name: 'Camille Martin', email, message: 'Un second message, trop tôt.' })
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Veuillez patienter')
    await expect(toastDescription(page)).toHaveText(
      /^Vous pourrez envoyer un nouveau message dans (5\d|60) secondes\.$/,
    )
    expect(await storedFor(email)).toHaveLength(1)
  })

  test('too fast: refused with the fill-time message, nothing stored', async ({ page }) => {
    // The page's clock stands still, so the form is sent "at once" however slow the machine is.
    await page.clock.setFixedTime(Date.now())
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    const email = uniqueEmail('fast')
    await fill(page, form, { name: 'Robot Rapide', email, message: 'Je remplis tout en une seconde.' })
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Veuillez prendre le temps de remplir le formulaire correctement.')
    expect(await storedFor(email)).toHaveLength(0)
  })

  test('honeypot filled: generic error, nothing stored', async ({ page }) => {
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    const email = uniqueEmail('honeypot')
    await fill(page, form, { name: 'Robot Rusé', email, message: 'Je remplis aussi le champ caché.' })
    await form.locator('input[name="website"]').fill('https://spam.example', { force: true })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText("Une erreur s'est produite")
    await expect(toastDescription(page)).toHaveText('Veuillez réessayer plus tard.')
    expect(await storedFor(email)).toHaveLength(0)
  })

  test('backend down: error toast, the typed message is kept', async ({ page }) => {
    await page.route('**/rest/v1/**', (route) => route.abort('connectionrefused'))
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    await fill(page, form, {
      name: 'Camille Martin',
      email: uniqueEmail('down'),
      message: 'Le serveur est injoignable ?',
    })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText("Une erreur s'est produite")
    await expect(toastDescription(page)).toHaveText('Veuillez réessayer plus tard.')
    await expect(form.getByLabel(/^Message \*/)).toHaveValue('Le serveur est injoignable ?')
    await expect(form.getByLabel(/^Nom \*/)).toBeEnabled()
  })

  test('the server-side rate limit (PT429) shows "Veuillez patienter"', async ({ page }) => {
    await page.route('**/rest/v1/contact_submissions', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'PT429',
          message: 'Too many messages from this address',
          details: null,
          hint: null,
        }),
      }),
    )
    await page.goto('/contact')
    const form = page.getByTestId('contact-form-page')
    await fill(page, form, {
      name: 'Camille Martin',
      email: uniqueEmail('limited'),
      message: 'Un message de trop ce soir.',
    })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Veuillez patienter')
  })

  test('speaks English on /en, with the same rules', async ({ page }) => {
    await page.goto('/en/contact')
    const form = page.getByTestId('contact-form-page')
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Send the message' }).click()
    await expect(toastTitle(page)).toHaveText('Validation error')
    await expect(toastDescription(page)).toHaveText('The name must be at least 2 characters long')
    const email = uniqueEmail('english')
    await fill(page, form, { name: 'Jane Doe', email, message: 'Hello, we would like LinkedIn posts.' })
    await form.getByRole('button', { name: 'Send the message' }).click()
    await expect(toastTitle(page)).toHaveText('Message sent successfully!')
    expect(await storedFor(email)).toMatchObject([{ name: 'Jane Doe', locale: 'en' }])
    // The agency is told to answer in English.
    await expect
      .poll(async () => (await emailsAbout(email)).map((sent) => [sent.subject, sent.text.split('\n')[0]]))
      .toEqual([
        [
          'Nouveau message de Jane Doe (en anglais)',
          'Écrit en anglais depuis la version anglaise du site (/en) : répondez en anglais.',
        ],
      ])
  })

  test('the form is on screen before its code arrives; what is typed meanwhile is kept and sent', async ({
    page,
    request,
  }) => {
    // Scripts named in the HTML are the first load; anything else (the form's own chunk) is held back.
    const html = await (await request.get('/contact')).text()
    const firstLoad = new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]))
    let held = 0
    await page.route('**/_next/static/chunks/*.js', async (route) => {
      if (!firstLoad.has(new URL(route.request().url()).pathname)) {
        held++
        await new Promise((resolve) => setTimeout(resolve, 2000))
      }
      await route.continue()
    })
    // Not waiting for the load event: a chunk requested before it would hold the event back too.
    await page.goto('/contact', { waitUntil: 'commit' })
    const form = page.getByTestId('contact-form-page')
    const send = form.getByRole('button', { name: 'Envoyer le message' })
    await expect(send).toBeDisabled()
    await form.getByLabel(/^Nom \*/).pressSequentially('Louise Early')
    await expect(send).toBeEnabled()
    expect(held).toBeGreaterThan(0)
    await expect(form.getByLabel(/^Nom \*/)).toHaveValue('Louise Early')
    const email = uniqueEmail('early')
    await fill(page, form, { email, message: 'Tapé avant que le formulaire ne soit prêt.' })
    await waitFillTime(page)
    await send.click()
    await expect(toastTitle(page)).toHaveText('Message envoyé avec succès!')
    expect(await storedFor(email)).toMatchObject([{ name: 'Louise Early' }])
  })
})

test.describe('package dialog form', () => {
  test('asks for at least 8 digits of phone, sends with the chosen package, then closes; no error logged', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/strategie-contenu')
    await page.getByTestId('package-card').nth(1).getByRole('button').click()
    const dialog = page.getByTestId('contact-dialog')
    await expect(dialog).toBeVisible()
    const form = dialog.getByTestId('contact-form-dialog')
    const email = uniqueEmail('dialog')
    await fill(page, form, {
      name: 'Camille Martin',
      email,
      phone: '0612',
      message: 'Bonjour, la formule Advanced nous intéresse.',
    })
    await waitFillTime(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(form.getByText('Le numéro de téléphone doit contenir au moins 8 chiffres')).toBeVisible()
    expect(await storedFor(email)).toHaveLength(0)

    await fill(page, form, { phone: '06 12 34 56 78' })
    const errorsBefore = consoleErrors.length
    const calls = functionCalls(page)
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Message envoyé avec succès!')
    await expect(dialog).toBeHidden()
    const rows = await storedFor(email)
    expect(rows).toHaveLength(1)
    expect(rows[0].package).toBe('Advanced')
    await expect
      .poll(async () => (await emailsAbout(email)).map((sent) => sent.subject))
      .toEqual(['Nouveau message de Camille Martin (Advanced)'])
    expect(calls, 'the page asks for no notification: the database does').toEqual([])
    await expectNoErrorLogged(page, consoleErrors, errorsBefore)
  })

  test('too fast in the dialog: refused, nothing stored', async ({ page }) => {
    // The page's clock stands still, so the form is sent "at once" however slow the machine is.
    await page.clock.setFixedTime(Date.now())
    await page.goto('/linkedin-services')
    await page.getByTestId('package-card').nth(0).getByRole('button').click()
    const form = page.getByTestId('contact-dialog').getByTestId('contact-form-dialog')
    const email = uniqueEmail('dialog-fast')
    await fill(page, form, { name: 'Robot Rapide', email, message: 'Réponse immédiate du robot.' })
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    await expect(toastTitle(page)).toHaveText('Veuillez prendre le temps de remplir le formulaire correctement.')
    await expectUncoveredByToasts(page, form.getByRole('button', { name: 'Envoyer le message' }))
    expect(await storedFor(email)).toHaveLength(0)
  })
})
