import { expect, test } from './fixtures'
import { inboxOf, seedInbox, signIn, toastTitle } from './inbox-kit'

/*
 * « Mot de passe oublié ? » on the inbox's sign-in, against the local Supabase (its /auth/v1/recover and
 * /verify, the email in the local mail viewer): the link sets a new password that signs in, works once,
 * and an unknown address gets the same answer and no email.
 */

const inbox = inboxOf('recovery')
const { TAG, ADMIN } = inbox
const mailViewerUrl = process.env.MAIL_VIEWER_URL ?? 'http://127.0.0.1:54324'
const SENT =
  'Si un compte administrateur correspond à cette adresse, un email vient de lui être envoyé. Son lien sert une fois et expire dans une heure.'

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox))

type Mail = { subject: string; html: string; to: { address: string }[] }
const mailsTo = async (address: string) =>
  ((await (await fetch(`${mailViewerUrl}/api/email`)).json()) as Mail[]).filter((mail) =>
    mail.to.some((to) => to.address === address),
  )

async function askForLink(page: import('@playwright/test').Page, email: string) {
  await page.goto('/admin-panel-2024')
  await page.getByRole('button', { name: 'Mot de passe oublié ?' }).click()
  const form = page.getByTestId('forgot-password')
  await form.getByLabel('Email').fill(email)
  await form.getByRole('button', { name: 'Envoyer le lien' }).click()
  await expect(form.getByRole('status')).toHaveText(SENT)
}

test('a forgotten password: the emailed link sets a new one that signs in, once; an unknown address gets the same answer and no email', async ({
  page,
  browser,
}) => {
  const unknown = `nobody-${TAG}@example.fr`
  await askForLink(page, unknown)
  await askForLink(page, ADMIN.email)
  await expect
    .poll(async () => (await mailsTo(ADMIN.email)).map((mail) => mail.subject))
    .toEqual(['Réinitialisez votre mot de passe'])
  expect(await mailsTo(unknown)).toEqual([])
  const [mail] = await mailsTo(ADMIN.email)
  const link = /href="([^"]+)"/.exec(mail.html)![1].replaceAll('&amp;', '&')
  expect(new URL(link).pathname).toBe('/admin-panel-2024/nouveau-mot-de-passe')

  await page.goto(link)
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(/\/nouveau-mot-de-passe$/)
  const form = page.getByTestId('password-reset-form')
  await form.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(page.getByTestId('reset-problem')).toHaveText('Saisissez un nouveau mot de passe.')
  await form.getByLabel('Nouveau mot de passe').fill('court')
  await form.getByLabel('Confirmer le mot de passe').fill('court')
  await form.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(page.getByTestId('reset-problem')).toHaveText(
    'Mot de passe refusé : il a 5 caractères, il en faut au moins 12.',
  )
  const fresh = 'Encre-Marine-Lundi-58'
  await form.getByLabel('Nouveau mot de passe').fill(fresh)
  await form.getByLabel('Confirmer le mot de passe').fill(fresh)
  await form.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(toastTitle(page)).toHaveText('Mot de passe modifié')
  await expect(page).toHaveURL(/\/admin-panel-2024$/)
  await expect(page.getByTestId('submission-count')).toBeVisible()

  // Elsewhere: the old password no longer signs in, the new one does; the link does not work twice.
  const other = await browser.newPage()
  await other.goto('/admin-panel-2024')
  await signIn(other, ADMIN)
  await expect(toastTitle(other)).toHaveText('Email ou mot de passe incorrect')
  await signIn(other, { email: ADMIN.email, password: fresh })
  await expect(toastTitle(other)).toHaveText('Connexion réussie')
  await other.goto(link)
  await other.getByLabel('Nouveau mot de passe').fill('Autre-Encre-Mardi-73')
  await other.getByLabel('Confirmer le mot de passe').fill('Autre-Encre-Mardi-73')
  await other.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
  await expect(other.getByTestId('reset-problem')).toHaveText(
    'Ce lien n’est plus valable : il sert une fois et expire après une heure. Demandez-en un nouveau.',
  )
  await other.close()
})
