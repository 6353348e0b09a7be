import { readFileSync } from 'node:fs'
import { expect } from './fixtures'
import { field, getDocument, lake, lakeUrl, studioTest as test, waitForPage } from './studio-kit'

/*
 * Published content survives a crash of everything that holds it: an edit is published, then the
 * Content Lake and the site are killed with SIGKILL at once; the test command's supervisor starts them
 * again, and the site and a Studio loaded afresh both show the edit. The test command runs this file
 * last, on its own (project restart): every other test reads the site or the Content Lake these kills
 * take down for a moment.
 */

/** Kills a server the test command supervises (it starts it again) and waits for the new one. */
async function killAndAwaitRestart(name: string, url: string) {
  const pidFile = `test-results/pids/${name}.pid`
  const pid = Number(readFileSync(pidFile, 'utf8'))
  process.kill(pid, 'SIGKILL')
  await expect.poll(() => Number(readFileSync(pidFile, 'utf8')), { timeout: 30_000 }).not.toBe(pid)
  await expect
    .poll(
      () =>
        fetch(url)
          .then((r) => r.status)
          .catch(() => 0),
      { timeout: 60_000, intervals: [250] },
    )
    .toBe(200)
}

type HomePage = { hero: { title: { fr: string } } }

test('after kill -9 and a restart of the Content Lake and the site, the published edit is still there', async ({
  page,
  baseURL,
}) => {
  const title = `Des mots qui durent ${Date.now().toString(36)}`
  // Published as the Studio publishes: the published document changes, the webhook revalidates the page.
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ patch: { id: 'homePage', set: { 'hero.title.fr': title } } }] }),
  })
  await waitForPage(page.request, '/', title)
  await killAndAwaitRestart('content-lake', `${lakeUrl}/v1/ping`)
  await killAndAwaitRestart('site', `${baseURL}/en`)
  expect(await (await page.request.get('/')).text()).toContain(title)
  expect(((await getDocument('homePage')) as HomePage).hero.title.fr).toBe(title)
  // Loaded afresh from the restarted servers.
  await page.goto('/studio/structure/homePage')
  await expect(page.getByTestId('form-view')).toBeVisible({ timeout: 30_000 })
  await expect(field(page, 'hero.title.fr')).toHaveValue(title, { timeout: 30_000 })
})
