// `npm run bench:studio`: the editorial loop on the local Content Lake, against a running `npm start`
// (site on BENCH_SITE_URL, default http://localhost:3000; Content Lake on NEXT_PUBLIC_SANITY_LOCAL_PORT).
//  1. Studio cold load: a fresh browser profile, from navigation to the structure list (median of 5).
//  2. Publish → page: 20 publishes of the home hero title through the Document Actions the Studio sends,
//     each timed until `/` serves the new text (p50, p95). The original title is published back.
//  3. Local query latency: each of the site's queries, 50 times per language (p50, p95).
import { createClient } from '@sanity/client'
import { readFileSync } from 'node:fs'
import { chromium } from '@playwright/test'
import { aboutPageQuery, contactPageQuery, homePageQuery, legalPageQuery, servicePageQuery, serviceNavQuery, siteSettingsQuery } from '../../lib/sanity/queries.ts'
import { LOCAL_CONTENT_LAKE_PORT } from '../../studio/local/defaults.ts'
import { findChromium } from '../../scripts/lib/find-chromium.mjs'

const siteUrl = (process.env.BENCH_SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, '')
const lakeUrl = `http://127.0.0.1:${Number(process.env.NEXT_PUBLIC_SANITY_LOCAL_PORT) || LOCAL_CONTENT_LAKE_PORT}`

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const ms = (value: number) => `${value.toFixed(1)} ms`

async function ensureRunning() {
  const site = await fetch(siteUrl).then((r) => r.ok).catch(() => false)
  const lake = await fetch(`${lakeUrl}/v1/ping`).then((r) => r.ok).catch(() => false)
  if (!site || !lake) {
    console.error(`Start the site first (npm start): site ${site ? 'up' : 'down'} at ${siteUrl}, local Content Lake ${lake ? 'up' : 'down'} at ${lakeUrl}.`)
    process.exit(1)
  }
}

async function studioColdLoad(runs = 5): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  const times: number[] = []
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } })
      await context.route(/^https:\/\/([a-z-]+\.)*(sanity\.io|sanity-cdn\.com)\//, (route) => route.fulfill({ json: {} }))
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(`${siteUrl}/studio`)
      await page.getByRole('listbox', { name: 'Contenu' }).getByRole('link', { name: 'Accueil', exact: true }).waitFor({ timeout: 60_000 })
      times.push(performance.now() - started)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return times
}

async function publishToPage(token: string, runs = 20): Promise<number[]> {
  const client = createClient({ projectId: 'local', dataset: 'production', apiVersion: '2025-02-19', useCdn: false, apiHost: lakeUrl, useProjectHostname: false, token })
  const actions = (list: unknown[]) => client.request({ method: 'POST', uri: '/data/actions/production', body: { actions: list } })
  const original = await client.fetch<string>('*[_id == "homePage"][0].hero.title.fr')
  const publish = async (title: string) => {
    const rev = await client.fetch<string>('*[_id == "homePage"][0]._rev')
    await actions([{ actionType: 'sanity.action.document.edit', draftId: 'drafts.homePage', publishedId: 'homePage', patch: { set: { 'hero.title.fr': title } } }])
    await actions([{ actionType: 'sanity.action.document.publish', draftId: 'drafts.homePage', publishedId: 'homePage', ifPublishedRevisionId: rev }])
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
  const client = createClient({ projectId: 'local', dataset: 'production', apiVersion: '2025-10-01', useCdn: false, perspective: 'published', apiHost: lakeUrl, useProjectHostname: false })
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

await ensureRunning()
const token = readFileSync('.data/content-lake/editor-token', 'utf8').trim()
const cold = await studioColdLoad()
console.log(`Studio cold load → structure list: median ${ms(percentile(cold, 50))} (runs: ${cold.map((t) => t.toFixed(0)).join(', ')} ms)`)
const publishes = await publishToPage(token)
console.log(`Publish → updated public page (${publishes.length} publishes): p50 ${ms(percentile(publishes, 50))}, p95 ${ms(percentile(publishes, 95))}, max ${ms(Math.max(...publishes))}`)
for (const [name, times] of await queryLatency()) console.log(`Query ${name.padEnd(12)} p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`)
