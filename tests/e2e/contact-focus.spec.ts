import { expect, test } from './fixtures'
import { fill, toastDescription, uniqueEmail, waitFillTime } from './contact-kit'

/*
 * WCAG 2.2's Focus Not Obscured on the contact page: a refused send focuses its first refused field,
 * which must show with its label below the fixed header, at every width and however the send was made
 * (the browser scrolls only a field off screen, not one half under the header: lib/scroll.ts).
 */

test('after a refused send, however it was sent, the focused field and its label are below the fixed header', async ({
  page,
}) => {
  /** Where the focused field, its label and the header's bottom are, once the page has stopped moving. */
  const placement = () =>
    page.evaluate(async () => {
      let last = NaN
      for (let frames = 0; frames < 120 && last !== window.scrollY; frames++) {
        last = window.scrollY
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      }
      const field = document.activeElement as HTMLElement
      const label = document.querySelector(`label[for="${field.id}"]`)!
      return {
        field: field.id.split('-').at(-1),
        labelTop: Math.round(label.getBoundingClientRect().top),
        fieldBottom: Math.round(field.getBoundingClientRect().bottom),
        headerBottom: Math.round(document.querySelector('header')!.getBoundingClientRect().bottom),
        height: window.innerHeight,
      }
    })
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 768, height: 1024 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport)
    for (const way of ['button', 'Enter in the phone field', 'Enter, the name field half under the header'] as const) {
      await page.goto('/contact')
      const form = page.getByTestId('contact-form-page')
      // Only the name is missing: the first refused field is the form's first.
      await fill(page, form, {
        email: uniqueEmail('focus'),
        phone: '06 12 34 56 78',
        message: 'Un message assez long.',
      })
      await waitFillTime(page)
      const send = form.getByRole('button', { name: 'Envoyer le message' })
      const name = form.getByLabel(/^Nom \*/)
      if (way === 'button' || way === 'Enter in the phone field') {
        // The form's end on screen, its first field far above.
        await send.evaluate((button) => button.scrollIntoView({ block: 'end', behavior: 'instant' }))
        if (way === 'button') await send.click()
        else await form.getByLabel(/^Téléphone/).press('Enter')
      } else {
        // The name field half hidden by the header: the browser scrolls it only as far as needed, and
        // its label, above it, used to stay under the header.
        await name.evaluate((input) => {
          const header = document.querySelector('header')!.getBoundingClientRect().bottom
          window.scrollBy({ top: input.getBoundingClientRect().top - (header - 20), behavior: 'instant' })
        })
        await form.getByLabel(/^Téléphone/).press('Enter')
      }
      await expect(toastDescription(page)).toHaveText('Le nom doit contenir au moins 2 caractères')
      const where = await placement()
      expect(where.field, `${way} at ${viewport.width}×${viewport.height}`).toBe('name')
      expect(where.labelTop, `${way} at ${viewport.width}×${viewport.height}`).toBeGreaterThanOrEqual(
        where.headerBottom,
      )
      expect(where.fieldBottom, `${way} at ${viewport.width}×${viewport.height}`).toBeLessThanOrEqual(where.height)
    }
  }
})
