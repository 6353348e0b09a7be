import { fill, toastDescription, toastTitle, uniqueEmail, waitFillTime } from './contact-kit'
import { expect, test } from './fixtures'

/*
 * The contact form's code and the package dialog load when first used, not with the page. Offline by
 * then (or after a new deployment replaced the chunks a page knows), that load fails: the visitor is
 * told, as for any failure to send (spec §8), and keeps the page and what was typed.
 */

test('offline when the form’s code would load: « Une erreur s’est produite », the page and what was typed stay', async ({
  page,
  context,
}) => {
  await page.goto('/contact')
  const form = page.getByTestId('contact-form-page')
  const values = { name: 'Camille Martin', email: uniqueEmail('offline'), message: 'Envoyé depuis le train.' }
  await fill(page, form, values)
  await waitFillTime(page)
  // The rules are checked by code that loads on the first send (zod): it cannot load now.
  await context.setOffline(true)
  await form.getByRole('button', { name: 'Envoyer le message' }).click()
  await expect(toastTitle(page)).toHaveText("Une erreur s'est produite")
  await expect(toastDescription(page)).toHaveText('Veuillez réessayer plus tard.')
  await expect(form.getByLabel(/^Message \*/)).toHaveValue(values.message)
  await expect(form.getByRole('button', { name: 'Envoyer le message' })).toBeEnabled()

  await context.setOffline(false)
  await page.goto('/linkedin-services')
  // Hydrated, and what the page prefetches once idle fetched: only the dialog's own code is left to load.
  await page.waitForLoadState('networkidle')
  await context.setOffline(true)
  await page.getByTestId('package-card').first().getByRole('button').click()
  await expect(toastTitle(page)).toHaveText("Une erreur s'est produite")
  await expect(page.getByTestId('contact-dialog')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // Back online, the same button opens it.
  await context.setOffline(false)
  await page.getByTestId('package-card').first().getByRole('button').click()
  await expect(page.getByTestId('contact-dialog')).toBeVisible()
})
