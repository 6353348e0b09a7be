import { expect } from './fixtures'
import type { FrameLocator, Page } from '@playwright/test'
import {
  answerSanityHosts,
  collectErrors,
  field,
  getDocument,
  lake,
  openStudio,
  publish,
  STEGA,
  studioTest as test,
  waitForPage,
} from './studio-kit'

/*
 * The Presentation tool, offline, against the local Content Lake: the editor's loop in
 * /studio/presentation: the page in its frame, click a text to open its field, type, see the frame
 * follow, publish. The Studio's tests share one Studio page (studioTest); this file runs beside
 * studio.spec.ts, in a Studio of its own, and edits documents that one does not (two service pages,
 * one in French, one in English). Draft mode without the Studio (its secret, its cookies, the
 * invisible encoding) is checked in draft-mode.spec.ts, with the other pages of the site.
 */

test.describe.configure({ mode: 'serial' })

test.beforeEach(async ({ context }) => {
  await answerSanityHosts(context)
})

/**
 * How long the framed page may take to follow an edit before the test calls it stuck: a ceiling for
 * hangs on a busy machine, not a speed requirement (the Studio commits typing at most once a second;
 * `npm run bench:studio` measures how fast the frame follows).
 */
const FOLLOW_MS = 30_000

/**
 * When the framed page's <h1> contains `text`, seen from inside the frame (a MutationObserver, so no
 * intermediate state is missed). Start it before the change; it rejects after `timeoutMs`.
 */
function frameHeadingShows(page: Page, text: string, timeoutMs = FOLLOW_MS): Promise<void> {
  const frame = page
    .frames()
    .find((candidate) => candidate !== page.mainFrame() && !new URL(candidate.url()).pathname.startsWith('/studio'))
  if (!frame) throw new Error('no preview frame')
  return frame.evaluate(
    ({ text, timeoutMs, stega }) =>
      new Promise<void>((resolve, reject) => {
        const shows = () =>
          (document.querySelector('h1')?.textContent ?? '').replace(new RegExp(stega, 'gu'), '').includes(text)
        if (shows()) return resolve()
        const observer = new MutationObserver(() => {
          if (!shows()) return
          observer.disconnect()
          clearTimeout(timer)
          resolve()
        })
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error(`the framed page does not show "${text}" after ${timeoutMs} ms`))
        }, timeoutMs)
      }),
    { text, timeoutMs, stega: STEGA.source },
  )
}

async function openPresentation(page: Page, preview: string): Promise<FrameLocator> {
  await openStudio(page, `/studio/presentation?preview=${encodeURIComponent(preview)}`)
  const frame = page.frameLocator('iframe').first()
  // A hang ceiling: on a busy 2-core machine the Studio took over 45 s to render the tool and its frame.
  await expect(frame.locator('h1').first()).toBeVisible({ timeout: 120_000 })
  await expect(frame.getByTestId('draft-mode-banner')).toBeVisible({ timeout: 30_000 })
  return frame
}

/**
 * Clicks the page's title in the frame until the Studio focuses its field (the overlays start once the
 * page's preview code has loaded). Before each new try it clicks another text of the page (the hero's
 * first paragraph): the Studio focuses a field when the focus path changes, so a second click on the
 * same text, once the first has opened the field, would not focus it again.
 */
async function clickToEdit(page: Page, frame: FrameLocator, path: string) {
  const heading = frame.locator('h1').first()
  const elsewhere = frame.locator('main p').first()
  const input = field(page, path)
  let tries = 0
  await expect(async () => {
    if (tries++ > 0) await elsewhere.click()
    await heading.hover()
    await heading.click()
    await expect(input).toBeFocused({ timeout: 5_000 })
  }).toPass({ timeout: 60_000 })
  return input
}

test('Presentation: click a hero title to edit it, the frame follows the typing, publishing updates the site', async ({
  page,
  request,
}) => {
  // A ceiling for hangs: the Studio's first render, the typing and the publish took over 3 minutes on a
  // busy 2-core machine (the steps themselves wait for outcomes).
  test.setTimeout(360_000)
  const errors = collectErrors(page)
  const frame = await openPresentation(page, '/redaction-web')
  const original = ((await frame.locator('h1').first().textContent()) ?? '')
    .replace(new RegExp(STEGA.source, 'gu'), '')
    .trim()
  const input = await clickToEdit(page, frame, 'page.hero.title.fr')

  // The frame follows the typing word by word (each word waited for, not timed): the first edit
  // creates the draft, the next ones go through the live draft; two of those show it keeps following
  // (each costs the Studio and the frame seconds of CPU; `npm run bench:studio` types many more).
  const started = frameHeadingShows(page, 'Des mots')
  await input.fill('Des mots')
  await started
  for (const word of ['qui', Date.now().toString(36)]) {
    const shows = frameHeadingShows(page, ` ${word}`)
    await input.press('End')
    await input.pressSequentially(` ${word}`)
    await shows
  }
  const title = await input.inputValue()
  expect(title).not.toBe(original)
  // Still a draft: the public page has not changed.
  expect(await (await request.get('/redaction-web')).text()).not.toContain(title)

  await publish(page)
  await waitForPage(request, '/redaction-web', title)
  expect(errors).toEqual([])
})

test('Presentation previews English too: an English edit shows in the /en frame and, once published, on the English page only', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000)
  const frame = await openPresentation(page, '/en/campagnes-email')
  const input = await clickToEdit(page, frame, 'page.hero.title.en')
  // The first edit creates the draft (the frame follows through its server refresh), the next one
  // goes through the live draft, as in French.
  const base = `Emails that get read ${Date.now().toString(36)}`
  const created = frameHeadingShows(page, base)
  await input.fill(base)
  await created
  const title = `${base} today`
  const shows = frameHeadingShows(page, title)
  await input.press('End')
  await input.pressSequentially(' today')
  await shows
  await publish(page)
  await waitForPage(request, '/en/campagnes-email', title)
  expect(await (await request.get('/campagnes-email')).text()).not.toContain(title)
})

test('a document lists the pages that show it, in both languages', async ({ page }) => {
  for (const [path, summary, pages] of [
    [
      'services;service-linkedin',
      'Utilisé sur 4 pages',
      ['Contenu LinkedIn (FR)', 'LinkedIn content (EN)', 'Accueil (FR)', 'Home (EN)'],
    ],
    // Site settings say where they show (everywhere) and list the main pages.
    [
      'siteSettings',
      'Utilisé sur toutes les pages (en-tête, pied de page, référencement)',
      ['Accueil (FR)', 'About (EN)', 'Contact (EN)'],
    ],
  ] as const) {
    await openStudio(page, `/studio/structure/${path}`)
    const used = page.getByRole('button', { name: summary })
    await expect(used).toBeVisible({ timeout: 120_000 })
    await used.click()
    for (const title of pages) await expect(page.getByText(title, { exact: true }).first()).toBeVisible()
  }
})

test('on an English page, a text whose English no longer follows its French is outlined « à revoir »; the others are not', async ({
  page,
}) => {
  // The third testimonial, on the home page, which no other test edits: its French changed through the API.
  const id = 'testimonial-3'
  const { content } = (await getDocument(id)) as { content: { fr: string; en: string } }
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ patch: { id, set: { 'content.fr': `${content.fr} (révisé)` } } }] }),
  })
  const frame = await openPresentation(page, '/en')
  // (Other tests of the Studio change French texts of this page too: only this one is looked for.)
  const marked = frame.locator('[data-translation-review]', { hasText: content.en.slice(0, 40) })
  await expect(marked).toHaveCount(1, { timeout: 60_000 })
  await expect(marked).toHaveAttribute('data-translation-review', 'à revoir')
  // A testimonial whose English follows its French is not marked.
  const { content: other } = (await getDocument('testimonial-1')) as { content: { en: string } }
  await expect(frame.getByText(other.en.slice(0, 40))).toBeVisible()
  await expect(frame.locator('[data-translation-review]', { hasText: other.en.slice(0, 40) })).toHaveCount(0)
  // Put back as it was, the French is followed again: the mark goes.
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ patch: { id, set: { 'content.fr': content.fr } } }] }),
  })
  await expect(marked).toHaveCount(0, { timeout: 60_000 })
})
