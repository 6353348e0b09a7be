import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { FRENCH_DATE_TIME, focused, inboxOf, search, seedInbox, service, signIn, toastTitle } from './inbox-kit'
import { tabTo } from './keyboard'

/*
 * What the inbox says of each message's notification to the agency, the « Non notifiées » filter, and
 * « Renvoyer la notification »: delivered (to the local mail viewer the test servers start), refused
 * within the minute (the database's limit), and for a message purged while the inbox is open. Against
 * the local Supabase server (inbox-kit.ts), with this file's own account and tagged messages, whose
 * notification states are written as send-contact-email would have left them.
 */

const inbox = inboxOf('notif')
const { TAG, ADMIN } = inbox
const mailViewerUrl = process.env.MAIL_VIEWER_URL ?? 'http://127.0.0.1:54324'

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox))

type State = Record<string, string | number | null>
const NEVER_ASKED: State = {
  notification_status: 'never_asked',
  notified_at: null,
  notification_error: null,
  notification_attempts: 0,
  notification_next_attempt_at: null,
  last_resend_at: null,
}
const SENT = (at: string): State => ({ notification_status: 'sent', notified_at: at, notification_attempts: 1 })
const GAVE_UP: State = {
  notification_status: 'delivery_failed',
  notification_error: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:465',
  notification_attempts: 4,
}

/** Messages under `tag`, newest first (in the future, so they lead the unfiltered list), in the given states. */
async function seed(tag: string, states: [string, State][]) {
  const base = Date.now() + 72 * 3600_000
  const rows = states.map(([name, state], i) => ({
    name: `${name} ${tag}`,
    email: `${name.toLowerCase()}-${tag}@example.fr`,
    message: `Message de test, ${tag}.`,
    created_at: new Date(base - i * 60_000).toISOString(),
    // Every row names every column (a bulk insert sends null for a column another row names).
    ...NEVER_ASKED,
    ...state,
  }))
  await service.from('contact_submissions').insert(rows).throwOnError()
}
const card = (page: Page, name: string) => page.getByRole('article', { name: `Message de ${name}` })
const statusOf = async (email: string) =>
  (
    await service
      .from('contact_submissions')
      .select('notification_status, notified_at')
      .eq('email', email)
      .single()
      .throwOnError()
  ).data

test('each message says what the agency was told; « Non notifiées » keeps the others, in the count and the pages', async ({
  page,
}) => {
  const tag = `${TAG}states`
  const nextAttempt = new Date(Date.now() + 3600_000)
  await seed(tag, [
    ['Sent', SENT('2026-12-10T13:05:00Z')],
    ['Never', {}],
    ['Failed', GAVE_UP],
    ['Later', { ...GAVE_UP, notification_attempts: 1, notification_next_attempt_at: nextAttempt.toISOString() }],
  ])
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await expect(page.getByTestId('submission-count')).toContainText('4 messages reçus')
  await expect(card(page, `Sent ${tag}`).getByTestId('notification-status')).toHaveText(
    'Notification envoyée le 10 décembre 2026 à 14:05',
  )
  await expect(card(page, `Sent ${tag}`).getByRole('button', { name: 'Renvoyer la notification' })).toHaveCount(0)
  await expect(card(page, `Never ${tag}`).getByTestId('notification-status')).toContainText(
    /^Notification non envoyée\s*Renvoyer la notification$/,
  )
  await expect(card(page, `Never ${tag}`).getByRole('button', { name: 'Renvoyer la notification' })).toBeVisible()
  await expect(card(page, `Failed ${tag}`).getByTestId('notification-status')).toContainText(
    'Notification non envoyée (échec après 4 tentatives)',
  )
  await expect(card(page, `Later ${tag}`).getByTestId('notification-status')).toContainText(
    new RegExp(String.raw`^Notification non envoyée \(nouvel essai automatique le ${FRENCH_DATE_TIME}\)`),
  )
  // Why, in plain French; the technical reason only once the administrator opens the detail.
  const reason = card(page, `Failed ${tag}`).getByTestId('notification-reason')
  await expect(reason.locator('summary')).toHaveText('Pourquoi : le serveur de messagerie est injoignable')
  await expect(reason.getByText('ESOCKET: connect ECONNREFUSED 127.0.0.1:465')).toBeHidden()
  await reason.locator('summary').click()
  await expect(reason.getByText('ESOCKET: connect ECONNREFUSED 127.0.0.1:465')).toBeVisible()

  // The filter, by keyboard: a checkbox beside the search.
  const filter = page.getByLabel('Non notifiées')
  await tabTo(page, filter)
  const filtered = page.waitForResponse((response) => response.url().includes('notified_at=is.null'))
  await page.keyboard.press('Space')
  await filtered
  await expect(filter).toBeChecked()
  await expect(page.getByTestId('submission-count')).toContainText('3 messages non notifiés')
  await expect(page.getByTestId('submission')).toHaveCount(3)
  await expect(card(page, `Sent ${tag}`)).toHaveCount(0)
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target)}`)).toEqual([])

  // Pages count the filtered messages: 50 never notified and 2 sent are two pages, then one.
  const paged = `${TAG}pages`
  await seed(paged, [
    ...Array.from({ length: 50 }, (_, i): [string, State] => [`Client${i}`, {}]),
    ['Sentone', SENT('2026-12-01T09:00:00Z')],
    ['Senttwo', SENT('2026-12-01T09:00:00Z')],
  ])
  await search(page, paged)
  await expect(page.getByTestId('submission-count')).toContainText('50 messages non notifiés')
  await expect(page.getByTestId('page-indicator')).toHaveCount(0)
  await filter.uncheck()
  await expect(page.getByTestId('submission-count')).toContainText('52 messages reçus')
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 sur 2')
  await search(page, `${paged}-nothing`)
  await filter.check()
  await expect(page.getByTestId('empty-inbox')).toHaveText('Aucun message ne correspond à votre recherche')
})

test('« Renvoyer la notification », by keyboard: the agency gets the email, the card says when', async ({ page }) => {
  const tag = `${TAG}resend`
  await seed(tag, [['Failed', GAVE_UP]])
  const email = `failed-${tag}@example.fr`
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  const button = card(page, `Failed ${tag}`).getByRole('button', { name: 'Renvoyer la notification' })
  await tabTo(page, button)
  await page.keyboard.press('Enter')
  await expect(toastTitle(page)).toHaveText('Notification renvoyée')
  await expect(card(page, `Failed ${tag}`).getByTestId('notification-status')).toHaveText(
    new RegExp(`^Notification envoyée le ${FRENCH_DATE_TIME}$`),
  )
  // The button went with the failure: the focus is on the message, not lost.
  await expect.poll(() => focused(page)).toBe(`Message de Failed ${tag}`)
  expect(await statusOf(email)).toMatchObject({ notification_status: 'sent' })
  // One email, in the local mail viewer (MailDev's GET /api/email), about this message.
  await expect
    .poll(async () => {
      const emails = (await (await fetch(`${mailViewerUrl}/api/email`)).json()) as { text: string }[]
      return emails.filter((mail) => mail.text.includes(`Email : ${email}\n`)).length
    })
    .toBe(1)
})

test('a resend within the minute of another (here, from another tab) is refused by the database, and said so', async ({
  page,
}) => {
  const tag = `${TAG}soon`
  await seed(tag, [['Failed', { ...GAVE_UP, last_resend_at: new Date().toISOString() }]])
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  const button = card(page, `Failed ${tag}`).getByRole('button', { name: 'Renvoyer la notification' })
  await button.click()
  await expect(toastTitle(page)).toHaveText('Veuillez patienter une minute avant de renvoyer cette notification.')
  await expect(button).toBeVisible()
  await expect(button).toBeFocused()
  expect(await statusOf(`failed-${tag}@example.fr`)).toMatchObject({
    notification_status: 'delivery_failed',
    notified_at: null,
  })
})

test('a message purged while the inbox is open: its resend says it no longer exists, the list refreshes without error', async ({
  page,
}) => {
  const tag = `${TAG}purge`
  await seed(tag, [
    ['Kept', GAVE_UP],
    ['Purged', GAVE_UP],
  ])
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await expect(page.getByTestId('submission-count')).toContainText('2 messages reçus')
  // The retention job deletes it meanwhile.
  await service.from('contact_submissions').delete().eq('email', `purged-${tag}@example.fr`).throwOnError()
  await card(page, `Purged ${tag}`).getByRole('button', { name: 'Renvoyer la notification' }).click()
  await expect(toastTitle(page)).toHaveText("Ce message n'existe plus")
  await expect(page.getByTestId('submission-count')).toContainText('1 message reçu')
  await expect(card(page, `Purged ${tag}`)).toHaveCount(0)
  await expect(page.getByText('Erreur lors du chargement des soumissions')).toHaveCount(0)
  await expect.poll(() => focused(page)).toBe(`Message de Kept ${tag}`)
  await expect(page.getByTestId('inbox-announcement')).toHaveText(`Message de Purged ${tag} supprimé. 1 message reçu.`)
})
