// Benchmark (not a test): production build time and peak memory, first-load JavaScript per public
// route (gzip), and Lighthouse 13 mobile scores for home, one service page, about and contact in
// both languages (the median of LIGHTHOUSE_RUNS runs, default 3). For scale it also measures the
// framework floor: an empty Next.js page (no client component, no font, one line of text) built and
// served the same way, on the same machine. Usage: npm run bench:lighthouse
// → prints a table, writes bench-results/site.json
// `npm run bench:lighthouse -- --js-only` stops after the first-load JavaScript table;
// `-- --no-floor` skips the empty page.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { CHROMIUM_ARGS, findChromium } from '../../scripts/lib/find-chromium.ts'
import { firstLoadScripts } from '../../scripts/lib/first-load-scripts.ts'
import { importFrom, installApart } from '../../scripts/lib/install-apart.ts'
import { exitAfterStopping, runToEnd, startProcess } from '../../scripts/lib/supervisor.ts'
import { freePort, waitForHttp } from '@plume/local-twins/free-port'
import { benchLog } from './bench-log.ts'

/** The parts of Lighthouse's and chrome-launcher's APIs used here (installed apart: no types in the project). */
type LighthouseResult = {
  lhr: {
    categories: Record<string, { score: number | null } | undefined>
    audits: Record<string, { numericValue?: number } | undefined>
    environment: { benchmarkIndex: number }
  }
}
type LighthouseFlags = { port: number; output: 'json'; logLevel: 'error' }
type Lighthouse = (url: string, flags: LighthouseFlags) => Promise<LighthouseResult | undefined>
type ChromeLauncher = {
  launch: (options: {
    chromePath: string
    chromeFlags: string[]
  }) => Promise<{ port: number; kill: () => void | Promise<void> }>
}

type FirstLoad = { scripts: number; kib: number }
type Score = {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  lcpMs: number
  cls: number
  tbtMs: number
  benchmarkIndex: number
}
type MedianScore = Score & { performanceRuns: number[] }

// The supervisor adds these to its own environment for every command started below.
const env = { NEXT_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NEXT_DIST_DIR: '.next-bench' }
const PAGES = ['/', '/linkedin-services', '/about', '/contact']
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const ALL_PUBLIC = [
  '/',
  '/linkedin-services',
  '/redaction-web',
  '/campagnes-email',
  '/strategie-contenu',
  '/about',
  '/contact',
  '/legal-notice',
  '/privacy-policy',
]
// Lighthouse (with chrome-launcher, its dependency) is installed apart, on the first run of this
// benchmark (scripts/lib/install-apart.ts): meanwhile the site builds.
const LIGHTHOUSE_VERSION = '13.5.0'
const lighthouseDir = process.argv.includes('--js-only')
  ? null
  : installApart('lighthouse', LIGHTHOUSE_VERSION, 'node_modules/.cache/lighthouse')
const localized = (path: string, locale: string) => (locale === 'fr' ? path : path === '/' ? '/en' : `/en${path}`)

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(rootPid: number): number {
  const processes = new Map<number, { ppid: number; rss: number }>()
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const rss = Number(readFileSync(`/proc/${name}/statm`, 'utf8').split(' ')[1]) * 4096
      processes.set(Number(name), { ppid, rss })
    } catch {
      // the process ended meanwhile
    }
  }
  const sum = (pid: number): number =>
    (processes.get(pid)?.rss ?? 0) +
    [...processes].filter(([, info]) => info.ppid === pid).reduce((total, [child]) => total + sum(child), 0)
  return sum(rootPid)
}

async function timedBuild(siteUrl: string, supabaseUrl: string) {
  const started = Date.now()
  // The build's output goes to a file (the table stays readable), named when it fails.
  const logFile = benchLog('lighthouse-build')
  const child = startProcess('npm', ['run', '--silent', 'build'], {
    env: { ...env, NEXT_PUBLIC_SITE_URL: siteUrl, NEXT_PUBLIC_SUPABASE_URL: supabaseUrl },
    logFile,
  })
  let peak = 0
  const sampler = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid))
  }, 200)
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  clearInterval(sampler)
  if (code !== 0) throw new Error(`build failed (${code}); its output: ${logFile}`)
  return { seconds: (Date.now() - started) / 1000, peakMiB: Math.round(peak / 1048576) }
}

async function firstLoadJs(base: string, path: string): Promise<FirstLoad> {
  const html = await (await fetch(base + path)).text()
  const sources = firstLoadScripts(html)
  let gzip = 0
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer())
    gzip += gzipSync(body, { level: 9 }).length
  }
  return { scripts: sources.length, kib: Math.round((gzip / 1024) * 10) / 10 }
}

const sitePort = await freePort()
const supabasePort = await freePort()
const base = `http://127.0.0.1:${sitePort}`
const supabaseUrl = `http://127.0.0.1:${supabasePort}`

console.log('Building (timed)…')
const build = await timedBuild(base, supabaseUrl)
startProcess(process.execPath, ['local/supabase/supabase-server.ts', '--port', String(supabasePort), '--memory'], {
  quiet: true,
  env,
})
startProcess('next', ['start', '-p', String(sitePort), '-H', '127.0.0.1'], { quiet: true, env })
await waitForHttp(base, { timeoutMs: 60_000 })

const js: Record<string, FirstLoad> = {}
for (const locale of ['fr', 'en'])
  for (const path of ALL_PUBLIC) js[localized(path, locale)] = await firstLoadJs(base, localized(path, locale))

if (process.argv.includes('--js-only')) {
  for (const [path, value] of Object.entries(js))
    console.log(`  ${path.padEnd(24)} ${String(value.kib).padStart(6)} KiB  (${value.scripts} scripts)`)
  await exitAfterStopping(0)
}

/** Lighthouse (default mobile preset) on url: a warm-up run, then RUNS measured runs; the median run. */
async function measure(lighthouse: Lighthouse, port: number, url: string): Promise<MedianScore> {
  const flags: LighthouseFlags = { port, output: 'json', logLevel: 'error' }
  await lighthouse(url, flags) // warm-up run (server caches)
  const runs: Score[] = []
  for (let run = 0; run < RUNS; run++) {
    const result = await lighthouse(url, flags)
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
    const { lhr } = result
    const category = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
    runs.push({
      performance: category('performance'),
      accessibility: category('accessibility'),
      bestPractices: category('best-practices'),
      seo: category('seo'),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
      benchmarkIndex: lhr.environment.benchmarkIndex,
    })
  }
  // The run with the median performance score stands for the page (Lighthouse's own advice:
  // single runs vary by several points, mostly through TBT).
  runs.sort((a, b) => a.performance - b.performance)
  return { ...runs[Math.floor(runs.length / 2)], performanceRuns: runs.map((r) => r.performance) }
}

/**
 * The framework floor: an empty App Router page in a scratch folder inside the project (so it
 * resolves the project's own `next`), built and started like the site. What it scores is what no
 * change to our pages can beat on this machine.
 */
async function startFloorSite(): Promise<string> {
  const dir = '.bench-floor'
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(`${dir}/app`, { recursive: true })
  writeFileSync(`${dir}/next.config.mjs`, `export default { turbopack: { root: ${JSON.stringify(process.cwd())} } }\n`)
  writeFileSync(
    `${dir}/app/layout.js`,
    "export const metadata = { title: 'Floor', description: 'An empty Next.js page.' }\nexport default function Layout({ children }) { return <html lang=\"en\"><body>{children}</body></html> }\n",
  )
  writeFileSync(
    `${dir}/app/page.js`,
    'export default function Page() { return <main><h1>Hello</h1><p>An empty Next.js page, the framework floor.</p></main> }\n',
  )
  const built = await runToEnd('next', ['build', dir], { quiet: true, env })
  if (built.code !== 0) throw new Error(`floor build failed (${built.code})`)
  const port = await freePort()
  startProcess('next', ['start', dir, '-p', String(port), '-H', '127.0.0.1'], { quiet: true, env })
  await waitForHttp(`http://127.0.0.1:${port}`, { timeoutMs: 60_000 })
  return `http://127.0.0.1:${port}/`
}

const floorUrl = process.argv.includes('--no-floor') ? null : await startFloorSite()
const lighthouseRoot = await lighthouseDir! // null only with --js-only, which ended above
const { default: lighthouse } = await importFrom<{ default: Lighthouse }>(lighthouseRoot, 'lighthouse')
const chromeLauncher = await importFrom<ChromeLauncher>(lighthouseRoot, 'chrome-launcher')
const chrome = await chromeLauncher.launch({
  chromePath: findChromium(),
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
})
const scores: Record<string, MedianScore> = {}
let floor: MedianScore | null = null
try {
  for (const locale of ['fr', 'en'])
    for (const path of PAGES)
      scores[localized(path, locale)] = await measure(lighthouse, chrome.port, base + localized(path, locale))
  if (floorUrl) floor = await measure(lighthouse, chrome.port, floorUrl)
} finally {
  await chrome.kill()
}

mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/site.json', JSON.stringify({ build, firstLoadJs: js, lighthouse: scores, floor }, null, 2))
console.log(`\nnext build: ${build.seconds.toFixed(1)} s, peak memory ${build.peakMiB} MiB`)
console.log('\nFirst-load JS (gzip):')
for (const [path, value] of Object.entries(js))
  console.log(`  ${path.padEnd(24)} ${String(value.kib).padStart(6)} KiB  (${value.scripts} scripts)`)
console.log(`\nLighthouse (mobile, median of ${RUNS} runs): perf / a11y / best practices / SEO — LCP, TBT, CLS`)
const row = (label: string, s: MedianScore) =>
  console.log(
    `  ${label.padEnd(24)} ${s.performance} / ${s.accessibility} / ${s.bestPractices} / ${s.seo} — ${s.lcpMs} ms, ${s.tbtMs} ms, ${s.cls.toFixed(3)}  (perf of each run: ${s.performanceRuns.join(', ')})`,
  )
for (const [path, s] of Object.entries(scores)) row(path, s)
if (floor) row('empty Next.js page', floor)
console.log(`  Lighthouse benchmark index of this machine: ${scores['/'].benchmarkIndex}`)
await exitAfterStopping(0)
