import { expect } from './fixtures'
import { tabTo } from './keyboard'
import type { Page } from '@playwright/test'
import {
  collectErrors,
  field,
  getDocument,
  lake,
  openDocument,
  openStudio,
  publish,
  sitePage,
  studioTest as test,
  waitForPage,
} from './studio-kit'

/*
 * The editorial loop in the embedded Studio, offline, against the local Content Lake that
 * scripts/test.ts starts (seeded into test-results/content-lake/, webhook pointed at the test site). This project runs
 * after the others (playwright.config.ts), since publishing changes the pages they read. The tests
 * share one Studio page (studioTest), booted by the first. presentation.spec.ts runs beside this file
 * in a Studio of its own and edits two service pages (/redaction-web, /campagnes-email), and
 * history-studio.spec.ts the benefits, the about page's photo and a client's logo: this file leaves them
 * alone (its draft is the contact page's). An English edit of a service page is presentation.spec.ts's.
 * A restart of the servers is restart.spec.ts's, run after them all.
 */

test.describe.configure({ mode: 'serial' })

/**
 * Clicks an item of the document's action menu (« … » beside « Publier »). The pane re-renders while a
 * document settles (its draft echoed back, the Presentation tool's list of the pages that show it),
 * which closes an open menu or disables its items for a moment: the menu is opened again until the
 * item, enabled, takes the click (a busy machine once left a test waiting on a menu already closed).
 */
async function documentAction(page: Page, name: string) {
  const item = page.getByRole('menuitem', { name })
  await expect(async () => {
    if (!(await item.isVisible())) await page.getByTestId('action-menu-button').click()
    await item.click({ timeout: 5_000 })
  }).toPass({ timeout: 60_000 })
}

/** « Annuler les modifications » from the document's action menu, confirmed. */
async function discardChanges(page: Page) {
  await documentAction(page, 'Annuler les modifications')
  await page.getByRole('dialog').getByRole('button', { name: 'Annuler les modifications', exact: true }).click()
}

test('the Studio signs in offline, shows the structure and opens every document type without a console error', async ({
  page,
}) => {
  const errors = collectErrors(page)
  await page.goto('/studio')
  const structure = page.getByRole('listbox', { name: 'Contenu' })
  for (const title of [
    'Réglages du site',
    'Accueil',
    'À propos',
    'Contact',
    'Services',
    'Avantages',
    'Logos clients',
    'Témoignages',
    'Pages légales',
  ]) {
    await expect(structure.getByRole('link', { name: title, exact: true })).toBeVisible({ timeout: 30_000 })
  }
  // As an editor moves around: clicking through the structure, each singleton, then each collection
  // and one of its documents, which opens with no validation error.
  for (const title of ['Réglages du site', 'Accueil', 'À propos', 'Contact']) {
    await structure.getByRole('link', { name: title, exact: true }).click()
    await expect(page.getByTestId('form-view')).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('action-publier')).toBeVisible()
  }
  for (const [list, item] of [
    ['Services', 'Contenu LinkedIn'],
    ['Avantages', 'Piloté par les données'],
    ['Logos clients', 'Batipro'],
    ['Témoignages', ''],
    ['Pages légales', 'Mentions légales'],
  ]) {
    await structure.getByRole('link', { name: list, exact: true }).click()
    const documents = page.getByRole('listbox').nth(1)
    const link = item
      ? documents.getByRole('link', { name: new RegExp(item, 'i') }).first()
      : documents.getByRole('link').first()
    await link.click()
    await expect(page.getByTestId('form-view')).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('action-publier')).toBeVisible()
    await expect(page.getByTestId('input-validation-icon-error')).toHaveCount(0)
  }
  // The Studio's own words are French (@sanity/locale-fr-fr): the document's actions, its status, the tools.
  await expect(page.getByTestId('action-publier')).toHaveText(/^Publier|^Publié/)
  await expect(page.getByText(/^(Publish|Published|Drafts|Review changes|History)$/)).toHaveCount(0)
  expect(errors).toEqual([])
})

const scriptHashes = (policy: string) =>
  policy
    .split(';')
    .find((directive) => directive.trim().startsWith('script-src'))
    ?.match(/'sha256-[^']+'/g) ?? []

test('a French edit of the home hero, published, shows on / and leaves /en alone', async ({ page }) => {
  const title = `Des mots qui font grandir votre entreprise ${Date.now().toString(36)}`
  const errors = collectErrors(page)
  const english = await (await page.request.get('/en')).text()
  const policyBefore = (await page.request.get('/')).headers()['content-security-policy']
  await openDocument(page, 'homePage')
  await field(page, 'hero.title.fr').fill(title)
  await publish(page)
  await waitForPage(page.request, '/', title)
  // The regenerated page has new inline scripts (its RSC payload holds the new title): its policy
  // names their hashes, not the build's, and a browser runs it without a policy violation (fixtures.ts).
  const policyAfter = (await page.request.get('/')).headers()['content-security-policy']
  expect(scriptHashes(policyAfter)).not.toEqual(scriptHashes(policyBefore))
  const site = await sitePage(page, '/')
  await expect(site.getByRole('heading', { level: 1 })).toContainText(title.split(' ').at(-1)!)
  await site.close()
  const englishAfter = await (await page.request.get('/en')).text()
  expect(englishAfter).not.toContain(title)
  expect(englishAfter.match(/<h1[^>]*>.*?<\/h1>/s)?.[0]).toBe(english.match(/<h1[^>]*>.*?<\/h1>/s)?.[0])
  expect(((await getDocument('homePage')) as { hero: { title: { fr: string } } }).hero.title.fr).toBe(title)
  expect(errors).toEqual([]) // ordinary editing leaves the console clean
})

test('a draft never reaches the public site, and discarding it restores the published text', async ({ page }) => {
  const published = ((await getDocument('contactPage')) as { hero: { title: { fr: string } } }).hero.title.fr
  const draft = `Brouillon ${Date.now().toString(36)}`
  await openDocument(page, 'contactPage')
  await field(page, 'hero.title.fr').fill(draft)
  await expect
    .poll(async () => JSON.stringify(await getDocument('drafts.contactPage')), { timeout: 30_000 })
    .toContain(draft)
  // Long enough for any webhook and regeneration to have happened: the page must not change.
  await page.waitForTimeout(2500)
  const html = await (await page.request.get('/contact')).text()
  expect(html).not.toContain(draft)
  expect(html).toContain(published.split(' ')[0])

  await discardChanges(page)
  await expect.poll(async () => getDocument('drafts.contactPage'), { timeout: 30_000 }).toBeNull()
  await expect(field(page, 'hero.title.fr')).toHaveValue(published, { timeout: 30_000 })
})

test('clearing a required field shows the validation error and publishing is refused', async ({ page }) => {
  const original = ((await getDocument('contactPage')) as { hero: { title: { fr: string } } }).hero.title.fr
  await openDocument(page, 'contactPage')
  const input = field(page, 'hero.title.fr')
  await expect(input).toHaveValue(original, { timeout: 30_000 })
  await input.fill('')
  // The field's error marker; its tooltip says « Requis ».
  const marker = page.getByTestId('field-hero.title.fr').getByTestId('input-validation-icon-error')
  await expect(marker).toBeVisible({ timeout: 30_000 })
  await marker.hover()
  await expect(page.getByText('Requis').first()).toBeVisible()
  await expect(page.getByTestId('action-publier')).toBeDisabled()
  await input.fill(original)
  await expect(marker).toHaveCount(0, { timeout: 30_000 })
  // Back to the published text: nothing to publish, the public page is untouched.
  await discardChanges(page)
  await expect.poll(async () => getDocument('drafts.contactPage'), { timeout: 30_000 }).toBeNull()
})

test('collection documents can be created and deleted; singletons can be neither', async ({ page }) => {
  await openStudio(page, '/studio/structure')
  await page.getByRole('button', { name: 'Créer un nouveau document' }).click()
  // The types a new document can be: the five collections, in a list of exactly five, named in French
  // for a screen reader (Sanity reads a key it does not define: studio/locale/studio-fr.ts).
  const types = page.getByRole('listbox', { name: 'Nouveau document' }).getByRole('link')
  await expect(types).toHaveText(['Avantage', 'Logo client', 'Page légale', 'Service', 'Témoignage'])

  // A new client logo: named, it exists as a draft in the Content Lake; deleted, it is gone.
  await types.getByText('Logo client', { exact: true }).click()
  const name = `Client ${Date.now().toString(36)}`
  await field(page, 'name').fill(name)
  const idOf = async () =>
    (
      await lake<{ result: string | null }>(
        `/v2025-02-19/data/query/production?perspective=raw&query=${encodeURIComponent(`*[name == "${name}"][0]._id`)}`,
      )
    ).result
  await expect.poll(idOf, { timeout: 30_000 }).toMatch(/^drafts\./)
  const id = (await idOf()) as string
  await documentAction(page, 'Supprimer')
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer maintenant' }).click()
  await expect.poll(async () => getDocument(id), { timeout: 30_000 }).toBeNull()

  // A singleton offers publish, discard and restore only: no delete, no duplicate (without a draft
  // there is nothing for its action menu, which is then not shown at all).
  await openDocument(page, 'homePage')
  await expect(page.getByTestId('action-publier')).toBeVisible()
  const more = page.getByTestId('action-menu-button')
  if ((await more.count()) > 0) {
    await more.click()
    await expect(page.getByRole('menuitem').first()).toBeVisible()
  }
  for (const name of ['Supprimer', 'Dupliquer', 'Delete', 'Duplicate'])
    await expect(page.getByRole('menuitem', { name })).toHaveCount(0)
})

test('the Studio works by keyboard alone: open a document from the structure, edit a field, publish', async ({
  page,
}) => {
  const title = `Nos coordonnées ${Date.now().toString(36)}`
  await openStudio(page, '/studio/structure')
  const entry = page.getByRole('link', { name: 'Contact', exact: true })
  await expect(entry).toBeVisible({ timeout: 30_000 })
  // From the top of the page, as after loading it: the next Tab goes to the first stop of the page.
  await page.evaluate(() => {
    document.body.tabIndex = -1
    document.body.focus()
    document.body.removeAttribute('tabindex')
  })
  // The structure list is one Tab stop whose items the arrow keys walk (aria-activedescendant; Sanity
  // marks the active one data-hovered): Tab to it, arrows to « Contact », Enter.
  await tabTo(page, page.locator('[tabindex="0"]', { has: entry }).last(), { max: 40 })
  for (let presses = 0; presses < 12 && (await entry.getAttribute('data-hovered')) === null; presses++)
    await page.keyboard.press('ArrowDown')
  await expect(entry).toHaveAttribute('data-hovered')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('form-view')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: /^(Used on \d+ pages?|Utilisé sur|Affiché sur)/ })).toBeVisible({
    timeout: 120_000,
  })
  await tabTo(page, field(page, 'detailsTitle.fr'), { max: 120 })
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type(title)
  await tabTo(page, page.getByTestId('action-publier'), { max: 120 })
  await expect(page.getByTestId('action-publier')).toBeEnabled({ timeout: 30_000 })
  await page.keyboard.press('Enter')
  await expect(page.getByText('Le document a été publié')).toBeVisible({ timeout: 30_000 })
  await waitForPage(page.request, '/contact', title)
})
