import type { Page, Request } from '@playwright/test'
import { expect } from './fixtures'

/*
 * The contact-form tests' gestures (filling the form, letting its fill time pass, the toasts), and what
 * they check after a message is sent: the agency's email in the local mail viewer (started with the
 * Supabase twin; MAIL_VIEWER_URL from the test command), which the database asks for (its insert
 * webhook), never the visitor's page.
 */

const mailViewerUrl = process.env.MAIL_VIEWER_URL ?? 'http://127.0.0.1:54324'

/** The notification emails the mail viewer received about this address (MailDev's GET /api/email). */
export async function emailsAbout(address: string) {
  const emails = (await (await fetch(`${mailViewerUrl}/api/email`)).json()) as { subject: string; text: string }[]
  return emails.filter((email) => email.text.includes(`Email : ${address}\n`))
}

/** The calls the page makes to Supabase's functions from now on (it should make none: the database notifies). */
export function functionCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname.startsWith('/functions/v1/')) calls.push(request.url())
  })
  return calls
}

/** After a send: the page has had its turn to log anything (its console errors since `from`). */
export async function expectNoErrorLogged(page: Page, errors: string[], from: number) {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
  expect(errors.slice(from), 'errors the page logged after sending').toEqual([])
}

let unique = 0
export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${unique++}@example.fr`

export async function fill(
  page: Page,
  scope: ReturnType<Page['getByTestId']>,
  values: { name?: string; email?: string; phone?: string; message?: string },
) {
  if (values.name !== undefined) await scope.getByLabel(/^(Nom|Name) \*/).fill(values.name)
  if (values.email !== undefined) await scope.getByLabel(/^Email \*/).fill(values.email)
  if (values.phone !== undefined) await scope.getByLabel(/^(Téléphone|Phone)/).fill(values.phone)
  if (values.message !== undefined) await scope.getByLabel(/^Message \*/).fill(values.message)
}

/** The form refuses submissions in the first 3 s after it appears (spec §9): the page's clock moves
 *  on 3.1 s at once, as if the visitor had taken that long (it keeps running from there). Only once
 *  the form is live (its send button is enabled when React has mounted it, and the contact page loads
 *  it after the page): a jump before its mount would not count. */
export const waitFillTime = async (page: Page) => {
  await expect(page.locator('form button[type="submit"]:visible').first()).toBeEnabled()
  // Let the mount's effects (which note when the form appeared) run before the clock moves.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
  await page.clock.setSystemTime((await page.evaluate(() => Date.now())) + 3100)
}

/** Whether a toast on screen overlaps `button`, and what a click on the button's centre would reach:
 *  a visitor correcting a refused message brings Send into view (the message under a refused field may
 *  have pushed it down) and presses it again while the toast is still up. */
export async function expectUncoveredByToasts(page: Page, button: ReturnType<Page['getByTestId']>) {
  await expect(page.getByTestId('toast-title').first()).toBeVisible()
  await button.scrollIntoViewIfNeeded()
  const seen = await button.evaluate((element) => {
    const box = element.getBoundingClientRect()
    const overlaps = [...document.querySelectorAll('[data-testid="toaster"] > *')].some((toast) => {
      const other = toast.getBoundingClientRect()
      return other.left < box.right && box.left < other.right && other.top < box.bottom && box.top < other.bottom
    })
    const reached = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return { overlaps, reachesButton: reached !== null && element.contains(reached) }
  })
  expect(seen).toEqual({ overlaps: false, reachesButton: true })
}

export const toastTitle = (page: Page) => page.getByTestId('toast-title').last()
export const toastDescription = (page: Page) => page.getByTestId('toast-description').last()
