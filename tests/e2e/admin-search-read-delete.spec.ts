import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { focused, inboxOf, search, seedInbox, service, signIn, toastTitle } from './inbox-kit'

/*
 * Working through the hidden inbox: search, pages, read and unread, deleting one message or all of an
 * address's, and where the focus and the live region go after a deletion. Against the local Supabase
 * server (inbox-kit.ts), with this file's own account and tagged messages; the list is searched by the
 * tag where counts matter.
 */

const inbox = inboxOf('triage')
const { TAG, ADMIN } = inbox

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox, { messages: true }))

const unreadInDatabase = async () =>
  (
    await service
      .from('contact_submissions')
      .select('*', { count: 'exact', head: true })
      .eq('is_read', false)
      .throwOnError()
  ).count
const isRead = async (email: string) =>
  (await service.from('contact_submissions').select('is_read').eq('email', email).single().throwOnError()).data.is_read

/**
 * The overall unread count on screen is the database's: every unread message, this file's and any
 * other's (the other inbox files' seeded messages among them). The contact-form tests running beside
 * these add unread messages at any moment, so an attempt counts only when the database gave the same
 * count before and after the inbox asked for it (paging forth and back); else the inbox is asked again.
 */
async function expectUnreadCountOfDatabase(page: Page) {
  await expect(async () => {
    const before = await unreadInDatabase()
    await page.getByRole('button', { name: 'Suivant' }).click()
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
    const asked = page.waitForResponse(
      (response) =>
        response.url().includes('/rest/v1/contact_submissions') && response.url().includes('is_read=eq.false'),
    )
    await page.getByRole('button', { name: 'Précédent' }).click()
    await asked
    const after = await unreadInDatabase()
    expect(after, 'a message arrived while the inbox was asking: asking again').toBe(before)
    await expect(page.getByTestId('unread-count')).toHaveText(new RegExp(`^${after} non lus?$`), { timeout: 5_000 })
  }).toPass({ timeout: 60_000 })
}

test('search, pagination, read/unread, delete and delete-all-from-address', async ({ page }) => {
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, TAG)
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(50)
  await page.getByRole('button', { name: 'Suivant' }).click()
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(5)
  await page.getByRole('button', { name: 'Précédent' }).click()
  await expect(page.getByTestId('submission')).toHaveCount(50)

  const zoe = page.getByTestId('submission').first()
  await expect(zoe).toHaveAttribute('data-unread', 'true')
  await expectUnreadCountOfDatabase(page)
  await zoe.getByRole('button', { name: 'Marquer comme lu' }).click()
  await expect(zoe).toHaveAttribute('data-unread', 'false')
  expect(await isRead(`zoe-${TAG}@example.fr`)).toBe(true)
  await expectUnreadCountOfDatabase(page)
  await zoe.getByRole('button', { name: 'Marquer comme non lu' }).click()
  await expect(zoe).toHaveAttribute('data-unread', 'true')

  // The site's own confirmation, never the browser's confirm(): Escape and « Annuler » keep the message.
  page.on('dialog', (dialog) => {
    throw new Error(`the browser's own dialog was opened: ${dialog.message()}`)
  })
  const confirm = page.getByRole('dialog', { name: 'Supprimer ce message ?' })
  await zoe.getByRole('button', { name: 'Supprimer', exact: true }).click()
  await expect(confirm).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Annuler' })).toBeFocused()
  await expect(confirm).toContainText('sera supprimé définitivement')
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await zoe.getByRole('button', { name: 'Supprimer', exact: true }).click()
  await confirm.getByRole('button', { name: 'Annuler' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByTestId('submission-count')).toContainText('55 messages reçus')
  await zoe.getByRole('button', { name: 'Supprimer', exact: true }).click()
  await confirm.getByRole('button', { name: 'Supprimer le message' }).click()
  await expect(toastTitle(page)).toHaveText('Message supprimé')
  await expect(page.getByTestId('submission-count')).toContainText('54 messages reçus')

  await search(page, `repeat-${TAG}`)
  await expect(page.getByTestId('submission-count')).toContainText('10 messages reçus')
  await page.getByTestId('submission').first().getByRole('button', { name: 'Supprimer tous ses messages' }).click()
  await page
    .getByRole('dialog', { name: 'Supprimer tous ses messages ?' })
    .getByRole('button', { name: 'Supprimer tous ses messages' })
    .click()
  await expect(toastTitle(page)).toHaveText('10 messages supprimés')
  await expect(page.getByTestId('empty-inbox')).toHaveText('Aucun message ne correspond à votre recherche')
  await expect(page.getByTestId('submission-count')).toContainText('0 message reçu')
  await expect.poll(() => focused(page)).toBe('h1 Messages')
  await expect(page.getByTestId('inbox-announcement')).toHaveText(
    `10 messages de repeat-${TAG}@example.fr supprimés. 0 message reçu.`,
  )
})

test('deleting the only message of the last page steps back to the previous page', async ({ page }) => {
  const tag = `${TAG}last`
  const rows = Array.from({ length: 51 }, (_, i) => ({
    name: `Client ${i}`,
    email: `l${i}-${tag}@example.fr`,
    message: `Message ${i}, ${tag}.`,
  }))
  await service.from('contact_submissions').insert(rows).throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await page.getByRole('button', { name: 'Suivant' }).click()
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await expect(page.getByTestId('submission')).toHaveCount(1)
  await page.getByTestId('submission').first().getByRole('button', { name: 'Supprimer', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer le message' }).click()
  await expect(page.getByTestId('submission-count')).toContainText('50 messages reçus')
  await expect(page.getByTestId('submission')).toHaveCount(50)
  await expect(page.getByTestId('empty-inbox')).toHaveCount(0)
  // The message before the deleted one is the last of the previous page: it takes the focus.
  await expect(page.getByTestId('submission').last()).toBeFocused()
})

test('after a deletion the focus goes to the next message, else the previous, else the heading, and the live region says what happened', async ({
  page,
}) => {
  const tag = `${TAG}focus`
  const base = Date.now() + 48 * 3600_000
  const rows = ['Alice', 'Bruno', 'Chloé'].map((name, i) => ({
    name: `${name} ${tag}`,
    email: `${name.toLowerCase()}-${tag}@example.fr`,
    message: `Message ${i}, ${tag}.`,
    created_at: new Date(base - i * 60_000).toISOString(),
  }))
  await service.from('contact_submissions').insert(rows).throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  await search(page, tag)
  await expect(page.getByTestId('submission-count')).toContainText('3 messages reçus')
  const announcement = page.getByTestId('inbox-announcement')
  await expect(announcement).toHaveText('')
  const remove = async (name: string) => {
    await page
      .getByRole('article', { name: `Message de ${name} ${tag}` })
      .getByRole('button', { name: 'Supprimer', exact: true })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Supprimer le message' }).click()
  }

  // The first of three: the next one takes the focus.
  await remove('Alice')
  await expect(page.getByTestId('submission')).toHaveCount(2)
  await expect.poll(() => focused(page)).toBe(`Message de Bruno ${tag}`)
  await expect(announcement).toHaveText(`Message de Alice ${tag} supprimé. 2 messages reçus.`)
  await expect(announcement).toHaveAttribute('role', 'status')

  // The last one: there is no next, the previous one takes it.
  await remove('Chloé')
  await expect(page.getByTestId('submission')).toHaveCount(1)
  await expect.poll(() => focused(page)).toBe(`Message de Bruno ${tag}`)
  await expect(announcement).toHaveText(`Message de Chloé ${tag} supprimé. 1 message reçu.`)
  // From there, Tab reaches the message's own buttons.
  await page.keyboard.press('Tab')
  await expect(
    page.getByRole('article', { name: `Message de Bruno ${tag}` }).getByRole('button', { name: 'Marquer comme lu' }),
  ).toBeFocused()

  // The only one left: the list's heading takes it.
  await remove('Bruno')
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  await expect.poll(() => focused(page)).toBe('h1 Messages')
  await expect(announcement).toHaveText(`Message de Bruno ${tag} supprimé. 0 message reçu.`)
})

test('search ignores accents and case: « FENETRE » finds « fenêtre »', async ({ page }) => {
  const tag = `${TAG}accents`
  const rows = [
    { name: `Hélène ${tag}`, email: `helene-${tag}@example.fr`, message: `Une fenêtre-${tag} sur la mer.` },
    { name: `Bruno ${tag}`, email: `bruno-${tag}@example.fr`, message: `Une porte-${tag} sur la rue.` },
  ]
  await service.from('contact_submissions').insert(rows).throwOnError()
  await page.goto('/admin-panel-2024')
  await signIn(page, ADMIN)
  for (const term of [`FENETRE-${tag.toUpperCase()}`, `fenêtre-${tag}`, `Fenetre-${tag}`]) {
    await search(page, term)
    await expect(page.getByTestId('submission-count'), term).toContainText('1 message reçu')
    await expect(page.getByTestId('submission')).toHaveCount(1)
    await expect(page.getByRole('article', { name: `Message de Hélène ${tag}` })).toBeVisible()
  }
  await search(page, `FENETRE-${tag.toUpperCase()}-MER`)
  await expect(page.getByTestId('empty-inbox')).toHaveText('Aucun message ne correspond à votre recherche')
})
