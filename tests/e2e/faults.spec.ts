import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fill, toastDescription, toastTitle, uniqueEmail, waitFillTime } from './contact-kit'
import { expect, test } from './fixtures'
import { localized, PUBLIC_PATHS } from './public-routes'
import { createPreviewSecret, lake, lakeUrl } from './studio-kit'
import { freePort } from '@plume/twins/free-port'

/*
 * Off the path the other tests take: a service that hangs (paused with SIGSTOP, as a stuck process or a
 * network partition would leave it), a server started with a content URL that points nowhere, and the
 * hand-off of the running services' variables (`npm start -- --print-env`). Pausing the Content Lake
 * or Supabase stops every test that reads them: this file runs in the `restart` project, alone, after
 * every other project.
 */

const pidOf = (name: string) => Number(readFileSync(`test-results/pids/${name}.pid`, 'utf8'))

/** Runs `work` with the twin `name` paused, and resumes it whatever happens. */
async function whilePaused<T>(name: string, work: () => Promise<T>): Promise<T> {
  const pid = pidOf(name)
  process.kill(pid, 'SIGSTOP')
  try {
    return await work()
  } finally {
    process.kill(pid, 'SIGCONT')
  }
}

/** The webhook the Content Lake sends on a publish, signed as Sanity signs it. */
function signedWebhook(body: string) {
  const secret = process.env.SANITY_REVALIDATE_SECRET!
  const t = Date.now()
  const signature = createHmac('sha256', secret).update(`${t}.${body}`).digest('base64url')
  return { 'Content-Type': 'application/json', 'sanity-webhook-signature': `t=${t},v1=${signature}` }
}

/** A Node 24 process of ours, its output gathered; resolves with its exit code. */
function runNode(args: string[], env: Record<string, string>) {
  // Not this runner's environment: it holds every variable of the test servers, which would name the
  // services the child must find (or miss) by itself.
  const childEnv = { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: process.env.HOME, ...env }
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

test('the Content Lake paused right after a publish: every public page answers 200 with its last version, an editor previewing drafts the last one loaded and why; resumed, the new words and a preview that follows edits again', async ({
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  // An editor in draft mode (a context of its own: its cookies must not reach the visitor's requests).
  const editor = await browser.newContext({ baseURL })
  const enable = await editor.request.get(
    `/api/draft-mode/enable?sanity-preview-secret=${await createPreviewSecret(baseURL!)}&sanity-preview-pathname=/en`,
    { maxRedirects: 0 },
  )
  expect(enable.status()).toBe(307)
  const previewed = await editor.newPage()
  await previewed.goto('/en')
  const detail = previewed.getByTestId('draft-mode-detail')
  await expect(detail).toHaveText('You are seeing unpublished changes.')
  const title = `Malgré la panne ${Date.now().toString(36)}`
  // Before the outage, a visit the site renders afresh (an unknown address): what its layout reads is
  // then in the data cache, as on any site that has served a visitor. A reused test build's own cache is
  // keyed by the last run's read token, which this run's Content Lake replaced.
  expect((await request.get(`/ancien-lien-${Date.now().toString(36)}`)).status()).toBe(404)
  await lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ patch: { id: 'homePage', set: { 'hero.title.fr': title } } }] }),
  })
  await whilePaused('content-lake', async () => {
    // A publish's webhook, now that nothing answers behind it, of a kind that every page shows (without
    // a type: everything is stale, the layout's reads among them): every page must be rendered afresh,
    // and none can be.
    const body = JSON.stringify({})
    const webhook = await request.post('/api/revalidate', { data: body, headers: signedWebhook(body) })
    expect(webhook.status()).toBe(200)
    for (const path of PUBLIC_PATHS)
      for (const locale of ['fr', 'en'] as const) {
        const url = localized(path, locale)
        // The ceiling is the 5 s: a render that waits on the paused Content Lake never answers.
        const response = await request.get(url, { timeout: 5_000, headers: { 'Cache-Control': 'no-cache' } })
        expect([url, response.status()]).toEqual([url, 200])
      }
    // A page nobody asked for before (an old link, a typo) cannot be read either: no service of the menu
    // the site last read has that slug, so it is the 404, not an error page (that 404 is not kept: the
    // menu may have changed). And an editor opening a preview,
    // whose secret the Content Lake must check, is told in the frame why it cannot open.
    // The editor already previewing, reloading, gets the page as last loaded and a banner saying so, not
    // an error page; the live updates' relay tells the page's EventSource to ask again later instead of
    // holding it open or ending it.
    const [unknown, preview, reloaded, live] = await Promise.all([
      request.get(`/tarifs-${Date.now().toString(36)}`, { timeout: 20_000 }),
      request.get('/api/draft-mode/enable?sanity-preview-secret=s&sanity-preview-pathname=/', {
        timeout: 20_000,
        maxRedirects: 0,
      }),
      previewed.reload({ timeout: 20_000 }),
      editor.request.get('/api/draft-mode/live', { timeout: 20_000 }),
    ])
    expect(reloaded?.status()).toBe(200)
    await expect(detail).toHaveText('Drafts cannot be read right now: you are seeing the last version loaded.')
    await expect(previewed.getByRole('heading', { level: 1 })).not.toBeEmpty()
    expect([live.status(), live.headers()['content-type'], await live.text()]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      'retry: 5000\nevent: unavailable\ndata: the Content Lake cannot be reached\n\n',
    ])
    expect(unknown.status()).toBe(404)
    expect(await unknown.text()).toContain('data-testid="not-found-home"')
    expect([preview.status(), await preview.text()]).toEqual([
      503,
      "L'aperçu ne peut pas s'ouvrir : l'API de contenu ne répond pas. Réessayez dans un instant.",
    ])
  })
  await expect
    .poll(async () => (await (await request.get('/')).text()).includes(title), { timeout: 30_000, intervals: [250] })
    .toBe(true)
  // The previewed page follows edits again by itself: its EventSource, asking again, is welcomed back.
  await expect(detail).toHaveText('You are seeing unpublished changes.', { timeout: 30_000 })
  await editor.close()
})

test('a 404 the cache holds keeps its « Page introuvable » title when a publish renders it again', async ({
  request,
}) => {
  test.setTimeout(60_000)
  const path = `/ancienne-offre-${Date.now().toString(36)}`
  const title = async () => {
    const response = await request.get(path, { headers: { 'Cache-Control': 'no-cache' } })
    expect(response.status()).toBe(404)
    return [/<title>([^<]*)<\/title>/.exec(await response.text())?.[1], response.headers()['x-nextjs-cache']]
  }
  expect((await title())[0]).toBe('Page introuvable | Plume &amp; Cap')
  const body = JSON.stringify({})
  expect((await request.post('/api/revalidate', { data: body, headers: signedWebhook(body) })).status()).toBe(200)
  // Served stale once, then as rendered again: until then the title is the one kept.
  await expect.poll(async () => (await title())[1], { timeout: 30_000, intervals: [250] }).toBe('HIT')
  expect((await title())[0]).toBe('Page introuvable | Plume &amp; Cap')
})

test('Supabase paused: the form says « Une erreur s’est produite » within its deadline, every field still filled', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await page.goto('/contact')
  const form = page.getByTestId('contact-form-page')
  const values = { name: 'Camille Martin', email: uniqueEmail('paused'), message: 'Vous êtes là ?' }
  await fill(page, form, values)
  await waitFillTime(page)
  await whilePaused('supabase', async () => {
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    // The deadline is 10 s (lib/supabase/fetch-with-deadline.ts); the ceiling is 15 s.
    await expect(toastTitle(page)).toHaveText("Une erreur s'est produite", { timeout: 15_000 })
    await expect(toastDescription(page)).toHaveText('Veuillez réessayer plus tard.')
  })
  await expect(form.getByLabel(/^Nom \*/)).toHaveValue(values.name)
  await expect(form.getByLabel(/^Email \*/)).toHaveValue(values.email)
  await expect(form.getByLabel(/^Message \*/)).toHaveValue(values.message)
})

test('a server whose Content Lake presents a certificate it does not trust names SANITY_PROJECT_API_URL, serves what the build holds (an unknown address its 404, an editor the published page and why), and never logs the read token', async ({
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const port = await freePort()
  // The local Content Lake over HTTPS, its certificate one this server was not told to trust (no
  // NODE_EXTRA_CA_CERTS): as a hosted site behind an expired certificate or a TLS-inspecting proxy.
  const lake = `https://localhost:${new URL(lakeUrl).port}`
  const token = process.env.SANITY_API_READ_TOKEN!
  const server = runNode(['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], {
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-test',
    SANITY_PROJECT_API_URL: lake,
    SANITY_API_READ_TOKEN: token,
    SANITY_REVALIDATE_SECRET: process.env.SANITY_REVALIDATE_SECRET!,
  })
  const logged = () => `${server.output().stdout}${server.output().stderr}`
  const escaped = lake.replace(/[.:/]/g, '\\$&')
  try {
    await expect
      .poll(() => server.output().stderr, { timeout: 60_000, intervals: [250] })
      .toMatch(
        new RegExp(
          `\\[services\\] the Content Lake \\(Sanity\\) at ${escaped} does not answer .*check SANITY_PROJECT_API_URL`,
        ),
      )
    expect((await request.get(`http://127.0.0.1:${port}/`)).status()).toBe(200)
    // A page no one asked for before must be read, and cannot be (Next's data cache holds the build's
    // reads under the build's address, not this one): the reason is logged, the token is not, and the
    // answers kept on disk stand in, found by their query (lib/cache/kept-answers.mjs; it was a 500).
    const unknown = await request.get(`http://127.0.0.1:${port}/ancien-lien-${Date.now().toString(36)}`)
    expect(unknown.status()).toBe(404)
    expect(await unknown.text()).toContain('<title>Page introuvable')
    // An editor previewing on this server, which has read nothing yet: the published page the build
    // read, and the banner saying drafts cannot be read (a 500 before). Draft access is given by the
    // site (this server cannot check a preview secret); cookies go to every port of the host.
    const editor = await browser.newContext({ baseURL })
    const secret = await createPreviewSecret(baseURL!)
    const enable = await editor.request.get(`/api/draft-mode/enable?sanity-preview-secret=${secret}`, {
      maxRedirects: 0,
    })
    expect(enable.status()).toBe(307)
    const previewed = await editor.request.get(`http://127.0.0.1:${port}/en/privacy-policy`)
    expect(previewed.status()).toBe(200)
    expect(await previewed.text()).toContain('Drafts cannot be read right now')
    await editor.close()
    await expect
      .poll(logged, { timeout: 10_000, intervals: [250] })
      .toMatch(
        new RegExp(`\\[content\\] the Content Lake at ${escaped} .*presents a certificate this server does not trust`),
      )
    expect(logged()).not.toContain(token)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('a server given a Content Lake address it cannot read (no http://) stops at once and says which variable, instead of answering 500 to every address', async () => {
  test.setTimeout(60_000)
  const server = runNode(['server/main.ts', '-p', String(await freePort()), '-H', '127.0.0.1'], {
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-test',
    SANITY_PROJECT_API_URL: 'abc123de.api.sanity.io',
    SANITY_REVALIDATE_SECRET: process.env.SANITY_REVALIDATE_SECRET!,
  })
  const code = await Promise.race([
    server.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 45_000)),
  ])
  if (code === 'still running') server.child.kill('SIGTERM')
  expect(code).toBe(1)
  expect(server.output().stderr).toContain('SANITY_PROJECT_API_URL must be an http(s) URL')
})

test('`npm start -- --print-env` while the services run: their variables, as NAME=value lines, and nothing started; none running: it says so', async ({
  baseURL,
}) => {
  const running = runNode(['scripts/start.ts', '--print-env'], {
    CONTENT_LAKE_PORT: new URL(lakeUrl).port,
    NEXT_PUBLIC_SUPABASE_URL: process.env.SUPABASE_URL!,
    // The site's own port, taken: a command that started anything would stop here.
    PORT: new URL(baseURL!).port,
  })
  expect(await running.exited).toBe(0)
  const { stdout, stderr } = running.output()
  const lines = stdout.trim().split('\n')
  expect(
    lines.every((line) => /^[A-Z][A-Z0-9_]*=\S+$/.test(line)),
    stdout,
  ).toBe(true)
  expect(Object.fromEntries(lines.map((line) => line.split('=', 2)))).toMatchObject({
    SANITY_PROJECT_API_URL: lakeUrl,
    NEXT_PUBLIC_SUPABASE_URL: process.env.SUPABASE_URL,
    SANITY_REVALIDATE_SECRET: process.env.SANITY_REVALIDATE_SECRET,
  })
  expect(lines).toHaveLength(10)
  expect(stderr).toBe('')

  const none = runNode(['scripts/start.ts', '--print-env'], {
    CONTENT_LAKE_PORT: String(await freePort()),
    NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${await freePort()}`,
  })
  expect(await none.exited).toBe(1)
  expect(none.output().stdout).toBe('')
  expect(none.output().stderr).toContain('no local service runs: start them with `npm start`')
})
