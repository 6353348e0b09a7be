import { expect, test } from './fixtures'

/*
 * The contact form's message count (« 120 / 1 000 », for the eyes) and what it says to screen readers
 * once the end is near (a status at 100, 50, 20, 10 and 0 characters left), in both languages.
 */

test('the message shows its count, and says to screen readers how much is left once the end is near', async ({
  page,
}) => {
  await page.goto('/contact')
  const form = page.getByTestId('contact-form-page')
  const message = form.getByLabel(/^Message \*/)
  const count = form.getByTestId('message-count')
  const left = form.getByTestId('message-left')
  // Once the form's code runs (what is typed before it is counted from the next key: docs/decisions.md).
  await expect(form.locator('button[type="submit"]')).toBeEnabled()
  await expect(count).toHaveText(/^0 \/ 1\s000$/)
  await message.fill('x'.repeat(120))
  await expect(count).toHaveText(/^120 \/ 1\s000$/)
  await expect(left).toHaveText('')
  await message.fill('x'.repeat(950))
  await expect(left).toHaveText('Il reste 50 caractères')
  await message.fill('x'.repeat(1001))
  await expect(left).toHaveText('Il reste 0 caractère')
  await expect(count).toHaveClass(/text-red-800/)
  // The label's name stays « Message * »: the count is for the eyes, the status for screen readers.
  await expect(form.getByRole('textbox', { name: 'Message *', exact: true })).toHaveCount(1)

  await page.goto('/en/contact')
  const english = page.getByTestId('contact-form-page')
  await expect(english.locator('button[type="submit"]')).toBeEnabled()
  await english.getByLabel(/^Message \*/).fill('x'.repeat(990))
  await expect(english.getByTestId('message-count')).toHaveText('990 / 1,000')
  await expect(english.getByTestId('message-left')).toHaveText('10 characters left')
})
