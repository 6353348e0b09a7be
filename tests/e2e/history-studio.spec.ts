import type { Page } from '@playwright/test'
import { expect } from './fixtures'
import {
  field,
  getDocument,
  lake,
  openDocument,
  openStudio,
  publish,
  studioTest as test,
  waitForPage,
} from './studio-kit'

/*
 * What an editor reaches for after a mistake, in the embedded Studio, offline: the History panel lists
 * the document's publishes with their times, « Review changes » shows what changed, an earlier
 * revision can be restored (and, published, is back on the site), a deleted document can be restored,
 * and no tool of the Studio leads to a blank page. The local Content Lake keeps every transaction and
 * serves Sanity's history API (local/README.md). This file edits the « Rapide » benefit and one
 * benefit it creates; studio.spec.ts and presentation.spec.ts, beside it, edit neither.
 */

test.describe.configure({ mode: 'serial' })

const BENEFIT = 'benefit-fast'
const tag = Date.now().toString(36)
const titleOf = async (id: string) => ((await getDocument(id)) as { title?: { fr?: string } } | null)?.title?.fr

/** The document's History inspector, showing the published version's events. */
async function openHistory(page: Page) {
  await page.getByTestId('pane-context-menu-button').last().click()
  await page.getByRole('menuitem', { name: 'History' }).click()
  await page.getByTestId('document-header-Published-chip').click()
  await expect(page.getByText(/Showing the history for the Published version/)).toBeVisible({ timeout: 30_000 })
}

test('History lists each publish with its time, Review changes shows it, and an earlier revision restored is back on the site', async ({
  page,
}) => {
  const titles = [1, 2, 3].map((edit) => `Rapide ${tag} ${edit}`)
  await openDocument(page, `avantages;${BENEFIT}`)
  for (const title of titles) {
    await field(page, 'title.fr').fill(title)
    await publish(page)
  }
  expect(await titleOf(BENEFIT)).toBe(titles[2])

  await openHistory(page)
  const events = page.getByTestId('timeline-item-button')
  // Newest first: the three publishes, each with when it happened.
  await expect(events.nth(2)).toBeVisible({ timeout: 30_000 })
  for (let index = 0; index < 3; index++) {
    await expect(events.nth(index)).toContainText('Published')
    await expect(events.nth(index)).toContainText(/just now|sec\. ago|min\. ago/)
  }

  // The first edit's revision: the form shows it, and Review changes shows what the next ones changed.
  await events.nth(2).click()
  await expect(field(page, 'title.fr')).toHaveValue(titles[0], { timeout: 30_000 })
  await page.getByRole('button', { name: 'Review changes', exact: true }).first().click()
  const review = page.getByTestId('review-changes-pane').last()
  // The field that changed, by its path (« Titre › Français »), with the text's difference marked.
  await expect(review).toContainText(/Titre\s*Français/)
  await expect(review).toContainText(/1$/)

  // Restored, it becomes the draft; published, it is the site's again.
  await page.getByTestId('action-reverttorevision').click()
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByTestId('document-header-Draft-chip').click()
  await expect(field(page, 'title.fr')).toHaveValue(titles[0], { timeout: 30_000 })
  await publish(page)
  expect(await titleOf(BENEFIT)).toBe(titles[0])
  await waitForPage(page.request, '/', titles[0])
})

test('a deleted document can be restored from its last revision', async ({ page }) => {
  const id = `benefit-history-${tag}`
  const title = `Supprimé puis rétabli ${tag}`
  const { _rev, _createdAt, _updatedAt, ...benefit } = (await getDocument('benefit-scalable')) as Record<
    string,
    unknown
  >
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({
      mutations: [{ createOrReplace: { ...benefit, _id: id, title: { fr: title, en: title } } }],
    }),
  })
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ delete: { id } }] }),
  })
  expect(await getDocument(id)).toBeNull()

  await openStudio(page, `/studio/structure/avantages;${id}`)
  await expect(page.getByText('This document has been deleted.')).toBeVisible({ timeout: 60_000 })
  await page.getByRole('button', { name: 'Restore most recent revision' }).click()
  await expect(field(page, 'title.fr')).toHaveValue(title, { timeout: 30_000 })
  await publish(page)
  expect(await titleOf(id)).toBe(title)
})

test('every tool of the Studio leads somewhere: Structure and Aperçu, no Releases', async ({ page }) => {
  await openStudio(page, '/studio/structure')
  await expect(page.getByRole('link', { name: 'Structure' })).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('link', { name: /Releases/i })).toHaveCount(0)
  for (const [name, content] of [
    ['Structure', page.getByText('Contenu', { exact: true })],
    ['Aperçu', page.locator('iframe')],
  ] as const) {
    await page.getByRole('link', { name, exact: true }).click()
    await expect(content.first()).toBeVisible({ timeout: 60_000 })
  }
})
