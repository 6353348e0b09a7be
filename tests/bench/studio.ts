// `npm run bench:studio`: the editorial loop on the local Content Lake, against a running `npm start`
// (site on BENCH_SITE_URL, default http://localhost:3000; Content Lake on CONTENT_LAKE_PORT).
//  1. Studio cold load: a fresh browser profile, from navigation to the structure list (median of 5).
//  2. Publish → page: 20 publishes of the home hero title through the Document Actions the Studio sends,
//     each timed until `/` serves the new text (p50, p95). The original title is published back.
//  3. Local query latency: each of the site's queries, 50 times per language (p50, p95).
//  4. Draft mode: the time to serve a page in draft mode (rendered on request, drafts, source maps)
//     against the same prerendered page, 30 requests each (p50, p95).
//  5. Presentation: the home hero title edited in /studio/presentation, 20 words typed; for each,
//     the time from the Studio's commit, and from the last keystroke, until the framed page shows it
//     (seen from inside the frame; p50, p95).
import { createClient } from '@sanity/client'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { chromium, type Browser } from '@playwright/test'
import {
  aboutPageQuery,
  contactPageQuery,
  homePageQuery,
  legalPageQuery,
  servicePageQuery,
  serviceNavQuery,
  siteSettingsQuery,
} from '../../lib/sanity/queries.ts'
import { LOCAL_CONTENT_LAKE_PORT } from '@plume/twins/defaults'
import { CHROMIUM_ARGS, findChromium } from '../../scripts/lib/find-chromium.ts'
import { percentile } from './bench-kit.ts'

const siteUrl = (process.env.BENCH_SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, '')
const lakeUrl = `http://127.0.0.1:${Number(process.env.CONTENT_LAKE_PORT) || LOCAL_CONTENT_LAKE_PORT}`

const ms = (value: number) => `${value.toFixed(1)} ms`

async function ensureRunning() {
  const site = await fetch(siteUrl)
    .then((r) => r.ok)
    .catch(() => false)
  const lake = await fetch(`${lakeUrl}/v1/ping`)
    .then((r) => r.ok)
    .catch(() => false)
  if (!site || !lake) {
    console.error(
      `Start the site first (npm start): site ${site ? 'up' : 'down'} at ${siteUrl}, local Content Lake ${lake ? 'up' : 'down'} at ${lakeUrl}.`,
    )
    process.exit(1)
  }
}

async function studioColdLoad(runs = 5): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS })
  const times: number[] = []
  try {
    for (let i = 0; i < runs; i++) {
      const context = await signedInContext(browser)
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(`${siteUrl}/studio`)
      await page
        .getByRole('listbox', { name: 'Contenu' })
        .getByRole('link', { name: 'Accueil', exact: true })
        .waitFor({ timeout: 60_000 })
      times.push(performance.now() - started)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return times
}

/** A returning editor's context: the token the Studio's sign-in left in localStorage (as it stores it). */
async function signedInContext(browser: Browser) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } })
  const token = readFileSync('.data/content-lake/editor-token', 'utf8').trim()
  await context.addInitScript((value) => {
    localStorage.setItem('__studio_auth_token_local', JSON.stringify({ token: value }))
  }, token)
  await context.route(/^https:\/\/([a-z-]+\.)*(sanity\.io|sanity-cdn\.com)\//, (route) => route.fulfill({ json: {} }))
  return context
}

async function publishToPage(token: string, runs = 20): Promise<number[]> {
  const client = createClient({
    projectId: 'local',
    dataset: 'production',
    apiVersion: '2025-02-19',
    useCdn: false,
    apiHost: lakeUrl,
    useProjectHostname: false,
    token,
  })
  const actions = (list: unknown[]) =>
    client.request({ method: 'POST', url: '/data/actions/production', body: { actions: list } })
  const original = await client.fetch<string>('*[_id == "homePage"][0].hero.title.fr')
  const publish = async (title: string) => {
    const rev = await client.fetch<string>('*[_id == "homePage"][0]._rev')
    await actions([
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'drafts.homePage',
        publishedId: 'homePage',
        patch: { set: { 'hero.title.fr': title } },
      },
    ])
    await actions([
      {
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.homePage',
        publishedId: 'homePage',
        ifPublishedRevisionId: rev,
      },
    ])
  }
  const times: number[] = []
  try {
    for (let i = 0; i < runs; i++) {
      const title = `Bench ${Date.now().toString(36)} ${i}`
      const started = performance.now()
      await publish(title)
      for (;;) {
        if ((await (await fetch(`${siteUrl}/`)).text()).includes(title)) break
        if (performance.now() - started > 30_000) throw new Error('the page did not change within 30 s')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      times.push(performance.now() - started)
    }
  } finally {
    await publish(original)
  }
  return times
}

async function queryLatency(): Promise<[string, number[]][]> {
  const client = createClient({
    projectId: 'local',
    dataset: 'production',
    apiVersion: '2025-10-01',
    useCdn: false,
    perspective: 'published',
    apiHost: lakeUrl,
    useProjectHostname: false,
  })
  const queries: [string, string, Record<string, string>][] = [
    ['siteSettings', siteSettingsQuery, {}],
    ['serviceNav', serviceNavQuery, {}],
    ['homePage', homePageQuery, {}],
    ['servicePage', servicePageQuery, { slug: 'linkedin-services' }],
    ['aboutPage', aboutPageQuery, {}],
    ['contactPage', contactPageQuery, {}],
    ['legalPage', legalPageQuery, { slug: 'legal-notice' }],
  ]
  const out: [string, number[]][] = []
  for (const [name, query, params] of queries) {
    const times: number[] = []
    for (let i = 0; i < 100; i++) {
      const started = performance.now()
      await client.fetch(query, { ...params, locale: i % 2 ? 'en' : 'fr' })
      times.push(performance.now() - started)
    }
    out.push([name, times])
  }
  return out
}

/** A preview secret as the Presentation tool writes it, exchanged for the draft-mode cookie. */
async function draftModeCookie(token: string): Promise<string> {
  const secret = randomBytes(16).toString('hex')
  const client = createClient({
    projectId: 'local',
    dataset: 'production',
    apiVersion: '2025-02-19',
    useCdn: false,
    apiHost: lakeUrl,
    useProjectHostname: false,
    token,
  })
  await client.createOrReplace({
    _id: `drafts.bench-${secret.slice(0, 8)}`,
    _type: 'sanity.previewUrlSecret',
    secret,
    studioUrl: `${siteUrl}/studio`,
  })
  const response = await fetch(
    `${siteUrl}/api/draft-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/`,
    { redirect: 'manual' },
  )
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0])
  if (!cookies.some((cookie) => cookie.startsWith('__prerender_bypass=')))
    throw new Error(`draft mode was not enabled (HTTP ${response.status})`)
  return cookies.join('; ')
}

async function draftModeLoad(token: string, runs = 30): Promise<[string, number[], number[]][]> {
  const cookie = await draftModeCookie(token)
  const out: [string, number[], number[]][] = []
  for (const path of ['/', '/en/about', '/linkedin-services']) {
    const draft: number[] = []
    const published: number[] = []
    for (let i = 0; i < runs; i++) {
      for (const [times, headers] of [
        [draft, { cookie }],
        [published, {}],
      ] as const) {
        const started = performance.now()
        await (await fetch(`${siteUrl}${path}`, { headers })).text()
        times.push(performance.now() - started)
      }
    }
    out.push([path, draft, published])
  }
  return out
}

async function presentationTyping(words = 20): Promise<{ commit: number[]; keystroke: number[] }> {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS })
  const commit: number[] = []
  const keystroke: number[] = []
  try {
    const context = await signedInContext(browser)
    const page = await context.newPage()
    const commits: number[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/data\/(actions|mutate)\//.test(request.url())) commits.push(Date.now())
    })
    await page.goto(`${siteUrl}/studio/presentation?preview=%2F`)
    const heading = page.frameLocator('iframe').first().locator('h1').first()
    await heading.waitFor({ timeout: 60_000 })
    const input = page.locator('[id="hero.title.fr"]')
    for (
      let attempt = 0;
      !(await input.evaluate((element) => element === document.activeElement).catch(() => false));
      attempt++
    ) {
      if (attempt === 20) throw new Error('clicking the framed title did not open its field')
      await heading.hover()
      await heading.click()
      await page.waitForTimeout(1_000)
    }
    const original = await input.inputValue()
    const frame = page
      .frames()
      .find((candidate) => candidate !== page.mainFrame() && !new URL(candidate.url()).pathname.startsWith('/studio'))
    if (!frame) throw new Error('no preview frame')
    for (let i = 0; i < words; i++) {
      const word = `w${i}${Date.now().toString(36).slice(-3)}`
      const shown = frame.evaluate(
        (text) =>
          new Promise<number>((resolve) => {
            const observer = new MutationObserver(() => {
              if (!document.querySelector('h1')?.textContent?.includes(text)) return
              observer.disconnect()
              resolve(Date.now())
            })
            observer.observe(document.body, { subtree: true, childList: true, characterData: true })
          }),
        word,
      )
      await input.press('End')
      await input.pressSequentially(` ${word}`)
      const typedAt = Date.now()
      const shownAt = await shown
      keystroke.push(Math.max(0, shownAt - typedAt))
      commit.push(shownAt - Math.max(...commits.filter((at) => at <= shownAt)))
    }
    await input.fill(original)
    await page.waitForTimeout(2_000) // the Studio commits the restored text (a draft equal to the published one)
  } finally {
    await browser.close()
  }
  return { commit, keystroke }
}

await ensureRunning()
const token = readFileSync('.data/content-lake/editor-token', 'utf8').trim()
const cold = await studioColdLoad()
console.log(
  `Studio cold load → structure list: median ${ms(percentile(cold, 50))} (runs: ${cold.map((t) => t.toFixed(0)).join(', ')} ms)`,
)
const publishes = await publishToPage(token)
console.log(
  `Publish → updated public page (${publishes.length} publishes): p50 ${ms(percentile(publishes, 50))}, p95 ${ms(percentile(publishes, 95))}, max ${ms(Math.max(...publishes))}`,
)
for (const [name, times] of await queryLatency())
  console.log(`Query ${name.padEnd(12)} p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`)
for (const [path, draft, published] of await draftModeLoad(token)) {
  console.log(
    `Page ${path.padEnd(19)} draft mode p50 ${ms(percentile(draft, 50))}, p95 ${ms(percentile(draft, 95))}; prerendered p50 ${ms(percentile(published, 50))}, p95 ${ms(percentile(published, 95))}`,
  )
}
const typing = await presentationTyping()
console.log(
  `Presentation, Studio commit → framed page (${typing.commit.length} words): p50 ${ms(percentile(typing.commit, 50))}, p95 ${ms(percentile(typing.commit, 95))}`,
)
console.log(
  `Presentation, last keystroke → framed page: p50 ${ms(percentile(typing.keystroke, 50))}, p95 ${ms(percentile(typing.keystroke, 95))} (the Studio commits typing at most once a second)`,
)
