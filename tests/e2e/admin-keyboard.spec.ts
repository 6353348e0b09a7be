import { expect, test } from './fixtures'
import { inboxOf, seedInbox } from './inbox-kit'
import { tabTo } from './keyboard'

/*
 * The hidden inbox by keyboard alone, against the local Supabase server (inbox-kit.ts), with this
 * file's own account and tagged messages.
 */

const inbox = inboxOf('keyboard')
const { TAG, ADMIN } = inbox

test.describe.configure({ mode: 'serial' })

test.beforeAll(() => seedInbox(inbox, { messages: true }))

test('the inbox works by keyboard alone: sign in, search, read state, pages, sign out', async ({ page }) => {
  test.setTimeout(150_000) // some 450 key presses, each checked
  await page.goto('/admin-panel-2024')
  await tabTo(page, page.getByLabel('Email'))
  await page.keyboard.type(ADMIN.email)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Mot de passe')).toBeFocused()
  await page.keyboard.type(ADMIN.password)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('submission-count')).toBeVisible()

  await tabTo(page, page.getByLabel('Rechercher'))
  const searched = page.waitForResponse((response) => decodeURIComponent(response.url()).includes(TAG))
  await page.keyboard.type(TAG)
  await searched
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 sur 2')

  const first = page.getByTestId('submission').first()
  await expect(first).toHaveAttribute('data-unread', 'true')
  await tabTo(page, first.getByRole('button', { name: 'Marquer comme lu' }))
  await page.keyboard.press('Enter')
  await expect(first).toHaveAttribute('data-unread', 'false')
  // The button keeps the focus and now says the opposite: Space turns it back.
  await expect(first.getByRole('button', { name: 'Marquer comme non lu' })).toBeFocused()
  await page.keyboard.press('Space')
  await expect(first).toHaveAttribute('data-unread', 'true')

  // Each card's stops: read state, delete, follow-up, reply, « Marquer comme répondu », the address, its deletion.
  await tabTo(page, page.getByRole('button', { name: 'Suivant' }), { max: 460 })
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 sur 2')
  await tabTo(page, page.getByTestId('logout'), { backwards: true, max: 80 })
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/$/)
})
