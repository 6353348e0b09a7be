import type { Page } from '@playwright/test'
import { createClient } from '@supabase/supabase-js'
import { anonKey, expect, test } from './fixtures'
import { inboxOf, search, seedInbox, service, signIn } from './inbox-kit'

/*
 * The inbox keeps the site's promise (« Réponse sous 24h »): a message left 30 hours without an answer
 * is flagged on its card and counted at the top; « Répondre » writes to the visitor in their language;
 * « Marquer comme répondu » lasts, can be undone, and takes it out of the count; the overview shows a
 * chart and a table of the same figures. Against the shared local Supabase: counts are read before and
 * after, as other files' messages are there too.
 */

const inbox = inboxOf('followup')
const { TAG, ADMIN } = inbox
let id = ''

// The second test reads the state the first leaves.
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  await seedInbox(inbox)
  const { data } = await service
    .from('contact_submissions')
    .insert({
      name: `Léa ${TAG}`,
      email: `lea-${TAG}@example.fr`,
      message: `Hello, could you write our newsletter? ${TAG}`,
      locale: 'en',
    })
    .select('id')
    .single()
    .throwOnError()
  id = data.id
  await service
    .from('contact_submissions')
    .update({ created_at: new Date(Date.now() - 30 * 3600_000).toISOString() })
    .eq('id', id)
    .throwOnError()
})

/** The header's count of messages past the promise (0 when it is not shown). */
async function overdueCount(page: Page): Promise<number> {
  const badge = page.getByTestId('overdue-count')
  if ((await badge.count()) === 0) return 0
  return Number((await badge.textContent())?.match(/^\d+/)?.[0])
}

test('a message 30 hours without an answer is flagged and counted; « Répondu » lasts, undoes, and uncounts it', async ({
  page,
}) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  const overview = page.getByRole('region', { name: 'Vue d’ensemble' })
  await expect(overview.locator('svg[data-testid="overview-chart"] rect').first()).toBeAttached()
  await expect(overview.getByRole('table')).toContainText('Semaine du')
  // On a phone (320 px, WCAG 1.4.10) the signed-in inbox, that table for screen readers included, does
  // not scroll sideways.
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 320, height: 640 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
  await page.setViewportSize(size)
  await expect(page.getByTestId('overdue-count')).toHaveText(/^\d+ messages? sans réponse depuis plus de 24 h$/)
  const before = await overdueCount(page)
  expect(before).toBeGreaterThanOrEqual(1)

  await search(page, TAG)
  const card = page.locator(`[data-submission-id="${id}"]`)
  await expect(card.getByTestId('overdue-flag')).toHaveText('Sans réponse depuis plus de 24 h')
  const reply = new URL((await card.getByTestId('reply').getAttribute('href')) ?? '')
  expect(reply.protocol).toBe('mailto:')
  expect(decodeURIComponent(reply.pathname)).toBe(`lea-${TAG}@example.fr`)
  expect(reply.searchParams.get('subject')).toMatch(/^Re: Your message of \d{1,2} \w+ \d{4}$/)
  expect(reply.searchParams.get('body')).toContain(`> Hello, could you write our newsletter? ${TAG}`)

  await card.getByTestId('mark-answered').click()
  await expect(card.getByTestId('answered-at')).toContainText('Répondu le')
  await expect(card.getByTestId('overdue-flag')).toHaveCount(0)
  await expect.poll(() => overdueCount(page)).toBe(before - 1)
  // Undone, it waits again; marked again, it stays so after a reload.
  await card.getByTestId('undo-follow-up').click()
  await expect(card.getByTestId('overdue-flag')).toBeVisible()
  await expect(card.getByTestId('follow-up-select')).toHaveValue('new')
  await card.getByTestId('mark-answered').click()
  await expect(card.getByTestId('answered-at')).toBeVisible()
  await page.reload()
  await search(page, TAG)
  await expect(card.getByTestId('follow-up-select')).toHaveValue('answered')
  await expect(card.getByTestId('overdue-flag')).toHaveCount(0)
  expect(await overdueCount(page)).toBe(before - 1)

  // Archived, it leaves the default list; the « Archivés » view shows it.
  await card.getByTestId('follow-up-select').selectOption('archived')
  await expect(card).toHaveCount(0)
  await page.getByTestId('inbox-view').selectOption('archived')
  await expect(card).toBeVisible()
})

test('the anonymous key changes nothing on a message', async () => {
  const anon = createClient(process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321', anonKey(), {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { error } = await anon.from('contact_submissions').update({ follow_up: 'new' }).eq('id', id)
  expect(error?.code).toBe('42501')
  const { data } = await service.from('contact_submissions').select('follow_up').eq('id', id).single().throwOnError()
  expect(data.follow_up).toBe('archived')
})
