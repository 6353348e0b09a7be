// `npm run bench:lighthouse`: Lighthouse 13 (default mobile preset: simulated slow 4G, 4× CPU slowdown)
// on every public page in both languages and on the 404 (/nope, /en/nope), interleaved with the
// framework's floor (an empty Next.js page with one client button, tests/bench/floor-site.ts) in the
// same run, so that both meet the same machine. LIGHTHOUSE_RUNS (3) rounds; in each, the floor is
// measured again before every FLOOR_EVERY (4) pages. Prints each page's median score, FCP, LCP, TBT,
// CLS, JavaScript and HTML transferred next to the floor's, the ratios and whether each bound holds
// (score ≥ floor − 2, LCP ≤ 1.3× the floor's, TBT ≤ the floor's, JavaScript ≤ floor + 12 KiB, the
// contact page + 30 KiB), each document's bytes (raw, gzip, brotli; its RSC payload and inline CSS),
// and what the largest paint was. Writes bench-results/lighthouse.json (and
// each page's last report in bench-results/lighthouse/).
// The site is the benchmarks' build (.next-bench, tests/bench/bench-site.ts) served by `npm start`'s
// server (server/main.ts); `-- --next-start` serves it with plain `next start` instead;
// `-- --pages /,/en/about` measures only those pages; `-- --applied` throttles for real (see APPLIED).
import { mkdirSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { resolve } from 'node:path'
import { CHROMIUM_ARGS, findChromium } from '../../scripts/lib/find-chromium.ts'
import { importFrom, installApart } from '../../scripts/lib/install-apart.ts'
import { startProcess } from '../../scripts/lib/supervisor.ts'
import { freePort } from '@plume/twins/free-port'
import { localized, PUBLIC_PATHS } from '../e2e/public-routes.ts'
import { startBenchSite } from './bench-site.ts'
import { buildFloorSite, FLOOR_DIR } from './floor-site.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

/** The parts of Lighthouse's and chrome-launcher's APIs used here (installed apart: no types in the project). */
type Audit = { numericValue?: number; details?: { items?: unknown[] } }
type LighthouseResult = {
  lhr: {
    categories: Record<string, { score: number | null } | undefined>
    audits: Record<string, Audit | undefined>
    environment: { benchmarkIndex: number }
    runtimeError?: { code: string; message: string }
  }
}
type LighthouseFlags = {
  port: number
  output: 'json'
  logLevel: 'error'
  ignoreStatusCode: boolean
  throttlingMethod: 'simulate' | 'devtools'
}
type Lighthouse = (url: string, flags: LighthouseFlags) => Promise<LighthouseResult | undefined>
type ChromeLauncher = {
  launch: (options: {
    chromePath: string
    chromeFlags: string[]
  }) => Promise<{ port: number; kill: () => void | Promise<void> }>
}

type Run = {
  score: number
  fcpMs: number
  lcpMs: number
  tbtMs: number
  cls: number
  jsKiB: number
  htmlKiB: number
  lcpElement: string
  benchmarkIndex: number
}
type Summary = Omit<Run, 'lcpElement'> & { scores: number[]; lcpElement: string }

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const FLOOR_EVERY = Number(process.env.FLOOR_EVERY ?? 4)
const LIGHTHOUSE_VERSION = '13.5.0'
const FLOOR = 'empty Next.js page'
// Lighthouse's default estimates a slow phone from a fast load (simulated throttling); `--applied` loads
// each page under DevTools' own throttling instead, in real time: slower, and what a phone would see.
const APPLIED = process.argv.includes('--applied')
const pagesArgument = process.argv.indexOf('--pages')
const PAGES =
  pagesArgument > 0
    ? process.argv[pagesArgument + 1].split(',')
    : (['fr', 'en'] as const).flatMap((locale) => [...PUBLIC_PATHS, '/nope'].map((path) => localized(path, locale)))
const logFile = benchLog('lighthouse', 'bench-results')

// Lighthouse (with chrome-launcher, its dependency) is installed apart on the first run
// (scripts/lib/install-apart.ts): meanwhile the site builds.
const lighthouseRoot = installApart('lighthouse', LIGHTHOUSE_VERSION, 'node_modules/.cache/lighthouse')

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10

/** The transferred bytes of one resource type, from Lighthouse's resource summary. */
function transferred(audit: Audit | undefined, type: string): number {
  const items = (audit?.details?.items ?? []) as { resourceType?: string; transferSize?: number }[]
  return items.find((item) => item.resourceType === type)?.transferSize ?? 0
}

/** The largest paint's element as Lighthouse names it (its LCP breakdown insight, or the older audit). */
function lcpElement(audits: LighthouseResult['lhr']['audits']): string {
  const found: string[] = []
  const visit = (value: unknown) => {
    if (found.length || !value || typeof value !== 'object') return
    const node = value as { type?: string; nodeLabel?: string; snippet?: string }
    if (node.type === 'node' && (node.nodeLabel || node.snippet)) {
      found.push(`${node.snippet?.slice(0, 60) ?? ''} “${node.nodeLabel?.slice(0, 40) ?? ''}”`)
      return
    }
    for (const child of Object.values(value)) visit(child)
  }
  visit(audits['lcp-breakdown-insight']?.details ?? audits['largest-contentful-paint-element']?.details)
  return found[0] ?? '?'
}

async function measure(lighthouse: Lighthouse, port: number, url: string, label: string): Promise<Run> {
  // The 404 is measured like any page: its status is what it should be, not a failed load.
  const flags: LighthouseFlags = {
    port,
    output: 'json',
    logLevel: 'error',
    ignoreStatusCode: true,
    throttlingMethod: APPLIED ? 'devtools' : 'simulate',
  }
  let result = await lighthouse(url, flags)
  // A trace Lighthouse could not read (NO_NAVSTART, NO_FCP on a busy machine) is its own failure, not the
  // page's: measured again, twice at most.
  for (let retry = 0; retry < 2 && result?.lhr.runtimeError; retry++) result = await lighthouse(url, flags)
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
  if (result.lhr.runtimeError)
    throw new Error(`Lighthouse could not measure ${url}: ${result.lhr.runtimeError.message}`)
  const { audits, categories, environment } = result.lhr
  mkdirSync('bench-results/lighthouse', { recursive: true })
  writeFileSync(
    `bench-results/lighthouse/${label.replace(/[^a-z0-9]+/gi, '_') || 'home'}.json`,
    JSON.stringify(result.lhr),
  )
  const value = (id: string) => audits[id]?.numericValue ?? Number.NaN
  return {
    score: Math.round((categories.performance?.score ?? 0) * 100),
    fcpMs: Math.round(value('first-contentful-paint')),
    lcpMs: Math.round(value('largest-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    cls: value('cumulative-layout-shift'),
    jsKiB: kib(transferred(audits['resource-summary'], 'script')),
    htmlKiB: kib(transferred(audits['resource-summary'], 'document')),
    lcpElement: lcpElement(audits),
    benchmarkIndex: environment.benchmarkIndex,
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function summarise(runs: Run[]): Summary {
  const of = (key: keyof Omit<Run, 'lcpElement'>) => median(runs.map((run) => run[key]))
  const elements = runs.map((run) => run.lcpElement)
  return {
    score: of('score'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    cls: of('cls'),
    jsKiB: of('jsKiB'),
    htmlKiB: of('htmlKiB'),
    benchmarkIndex: of('benchmarkIndex'),
    scores: runs.map((run) => run.score),
    // The element most runs named.
    lcpElement: elements.sort(
      (a, b) => elements.filter((e) => e === b).length - elements.filter((e) => e === a).length,
    )[0],
  }
}

const { cleanUp } = await startBenchSite(logFile)
try {
  await buildFloorSite(logFile)
  const sitePort = await freePort()
  const floorPort = await freePort()
  const serveWithNext = process.argv.includes('--next-start')
  const server = serveWithNext
    ? { command: resolve('node_modules/.bin/next'), args: ['start'] }
    : { command: process.execPath, args: ['server/main.ts'] }
  startProcess(server.command, [...server.args, '-p', String(sitePort), '-H', '127.0.0.1'], {
    env: { NODE_ENV: 'production' },
    logFile,
  })
  startProcess(resolve('node_modules/.bin/next'), ['start', '-p', String(floorPort), '-H', '127.0.0.1'], {
    cwd: FLOOR_DIR,
    env: { NODE_ENV: 'production' },
    logFile,
  })
  const site = `http://127.0.0.1:${sitePort}`
  const floorUrl = `http://127.0.0.1:${floorPort}/`
  await waitForServer(`${site}/`, logFile)
  await waitForServer(floorUrl, logFile)
  // Each page once before measuring: its first answer fills the server's caches.
  for (const path of PAGES) await fetch(site + path).then((response) => response.arrayBuffer())

  const { default: lighthouse } = await importFrom<{ default: Lighthouse }>(await lighthouseRoot, 'lighthouse')
  const chromeLauncher = await importFrom<ChromeLauncher>(await lighthouseRoot, 'chrome-launcher')
  const chrome = await chromeLauncher.launch({
    chromePath: findChromium(),
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  })
  const runs = new Map<string, Run[]>([[FLOOR, []], ...PAGES.map((path): [string, Run[]] => [path, []])])
  const record = async (label: string, url: string) =>
    runs.get(label)!.push(await measure(lighthouse, chrome.port, url, label))
  try {
    await measure(lighthouse, chrome.port, floorUrl, 'warm-up') // Lighthouse's and Chromium's own first run
    for (let round = 1; round <= RUNS; round++) {
      console.log(`▶ round ${round} of ${RUNS}: ${PAGES.length} pages, the floor before every ${FLOOR_EVERY}`)
      for (const [index, path] of PAGES.entries()) {
        if (index % FLOOR_EVERY === 0) await record(FLOOR, floorUrl)
        await record(path, site + path)
      }
    }
    await record(FLOOR, floorUrl)
  } finally {
    await chrome.kill()
  }

  const summaries = new Map([...runs].map(([label, list]) => [label, summarise(list)]))
  const floor = summaries.get(FLOOR)!
  mkdirSync('bench-results', { recursive: true })
  writeFileSync(
    'bench-results/lighthouse.json',
    JSON.stringify(
      { server: serveWithNext ? 'next start' : 'server/main.ts', runs: Object.fromEntries(runs) },
      null,
      2,
    ),
  )

  const cell = (text: string | number, width: number) => String(text).padStart(width)
  console.log(
    `\nLighthouse ${LIGHTHOUSE_VERSION}, mobile (${APPLIED ? 'applied' : 'simulated'} throttling), median of ${RUNS} runs per page (the floor: ${runs.get(FLOOR)!.length} runs), site served by ${serveWithNext ? 'next start' : 'server/main.ts'}:`,
  )
  console.log(
    `  ${'page'.padEnd(28)} ${cell('score', 5)} ${cell('FCP', 7)} ${cell('LCP', 7)} ${cell('TBT', 6)} ${cell('CLS', 5)} ${cell('JS KiB', 7)} ${cell('HTML', 6)}   Δscore  LCP×  TBT×   ΔJS  bounds`,
  )
  let missed = 0
  for (const [label, s] of summaries) {
    const isFloor = label === FLOOR
    const jsAllowance = label.endsWith('/contact') ? 30 : 12
    const checks = [
      s.score >= floor.score - 2,
      s.lcpMs <= floor.lcpMs * 1.3,
      s.tbtMs <= floor.tbtMs,
      s.jsKiB <= floor.jsKiB + jsAllowance,
      s.cls < 0.005,
    ]
    if (!isFloor && checks.includes(false)) missed++
    const ratios = isFloor
      ? ''
      : `   ${cell((s.score - floor.score).toFixed(0), 5)} ${cell((s.lcpMs / floor.lcpMs).toFixed(2), 5)} ${cell(floor.tbtMs ? (s.tbtMs / floor.tbtMs).toFixed(2) : '–', 5)} ${cell((s.jsKiB - floor.jsKiB).toFixed(1), 5)}  ${checks.every(Boolean) ? 'met' : `MISSED (${['score', 'LCP', 'TBT', 'JS', 'CLS'].filter((_, i) => !checks[i]).join(', ')})`}`
    console.log(
      `  ${label.padEnd(28)} ${cell(s.score, 5)} ${cell(s.fcpMs, 5)}ms ${cell(s.lcpMs, 5)}ms ${cell(s.tbtMs, 4)}ms ${cell(s.cls.toFixed(2), 5)} ${cell(s.jsKiB.toFixed(1), 7)} ${cell(s.htmlKiB.toFixed(1), 6)}${ratios}`,
    )
  }
  // What each document weighs before its first words: raw, and compressed as our server keeps a page
  // (gzip 9, brotli 9), with the raw bytes of its RSC payload and inline stylesheets.
  console.log('\nEach document (bytes; RSC payload and inline CSS are parts of the raw):')
  console.log(
    `  ${'page'.padEnd(28)} ${cell('raw', 8)} ${cell('gzip', 7)} ${cell('brotli', 7)} ${cell('RSC', 7)} ${cell('CSS', 7)}`,
  )
  for (const [label, url] of [[FLOOR, floorUrl], ...PAGES.map((path) => [path, site + path])]) {
    const html = Buffer.from(await (await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer())
    const text = html.toString('utf8')
    const rsc = [...text.matchAll(/self\.__next_f\.push\((.*?)\)<\/script>/g)].reduce((sum, m) => sum + m[1].length, 0)
    const css = [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].reduce((sum, m) => sum + m[1].length, 0)
    const gzip = gzipSync(html, { level: 9 }).length
    const brotli = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length
    console.log(
      `  ${label.padEnd(28)} ${cell(html.length, 8)} ${cell(gzip, 7)} ${cell(brotli, 7)} ${cell(rsc, 7)} ${cell(css, 7)}`,
    )
  }
  console.log('\nThe largest paint of each page (the element most runs named):')
  for (const [label, s] of summaries)
    console.log(`  ${label.padEnd(28)} ${s.lcpElement}  (scores: ${s.scores.join(', ')})`)
  console.log(`\nLighthouse benchmark index of this machine: ${floor.benchmarkIndex}`)
  console.log(missed ? `${missed} page(s) miss a bound.` : 'Every page meets every bound.')
} finally {
  await cleanUp()
}
