import type { Page, Request } from '@playwright/test'
import { expect } from './fixtures'

/*
 * What the contact-form tests check after a message is sent: the agency's email in the local mail
 * viewer (started with the Supabase twin; MAIL_VIEWER_URL from the test command), and that the form's
 * call to send-contact-email, which it makes after the success toast and only logs when it fails,
 * succeeded without the page logging an error.
 */

const mailViewerUrl = process.env.MAIL_VIEWER_URL ?? 'http://127.0.0.1:54324'

/** The notification emails the mail viewer received about this address (MailDev's GET /api/email). */
export async function emailsAbout(address: string) {
  const emails = (await (await fetch(`${mailViewerUrl}/api/email`)).json()) as { subject: string; text: string }[]
  return emails.filter((email) => email.text.includes(`Email : ${address}\n`))
}

/**
 * Resolves once the browser is done with the form's call to send-contact-email, which the form makes
 * after the success toast and only logs when it fails: null when an answer came, else why not (a
 * request refused by CORS fails here).
 */
export function notificationCall(page: Page): Promise<string | null> {
  const isCall = (request: Request) =>
    request.method() === 'POST' && new URL(request.url()).pathname === '/functions/v1/send-contact-email'
  return new Promise((resolve) => {
    page.on('requestfinished', (request) => isCall(request) && resolve(null))
    page.on('requestfailed', (request) => isCall(request) && resolve(request.failure()?.errorText ?? 'failed'))
  })
}

/** After the call: the page has had its turn to log what became of it (the log follows the answer). */
export async function expectNoErrorLogged(page: Page, errors: string[], from: number) {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
  expect(errors.slice(from), 'errors the page logged after sending').toEqual([])
}
