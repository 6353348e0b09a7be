// Benchmark (not a test): production build time and peak memory, first-load JavaScript per public
// route (gzip), and Lighthouse 13 mobile scores for home, one service page, about and contact in
// both languages (the median of LIGHTHOUSE_RUNS runs, default 3). For scale it also measures the
// framework floor: an empty Next.js page (no client component, no font, one line of text) built and
// served the same way, on the same machine. Usage: npm run bench:lighthouse
// → prints a table, writes bench-results/site.json
// `npm run bench:lighthouse -- --js-only` stops after the first-load JavaScript table;
// `-- --no-floor` skips the empty page.
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { CHROMIUM_ARGS, findChromium } from '../../scripts/lib/find-chromium.mjs'
import { firstLoadScripts } from '../../scripts/lib/first-load-scripts.mjs'
import { importFrom, installApart } from '../../scripts/lib/install-apart.mjs'
import { freePort, waitForHttp } from '@plume/local-twins/free-port'

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NEXT_DIST_DIR: '.next-bench' }
const PAGES = ['/', '/linkedin-services', '/about', '/contact']
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const ALL_PUBLIC = ['/', '/linkedin-services', '/redaction-web', '/campagnes-email', '/strategie-contenu', '/about', '/contact', '/legal-notice', '/privacy-policy']
// Lighthouse (with chrome-launcher, its dependency) is installed apart, on the first run of this
// benchmark (scripts/lib/install-apart.mjs): meanwhile the site builds.
const LIGHTHOUSE_VERSION = '13.5.0'
const lighthouseDir = process.argv.includes('--js-only') ? null : installApart('lighthouse', LIGHTHOUSE_VERSION, 'node_modules/.cache/lighthouse')
const localized = (path, locale) => (locale === 'fr' ? path : path === '/' ? '/en' : `/en${path}`)

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(rootPid) {
  const processes = new Map()
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
  const sum = (pid) => (processes.get(pid)?.rss ?? 0) + [...processes].filter(([, info]) => info.ppid === pid).reduce((total, [child]) => total + sum(child), 0)
  return sum(rootPid)
}

async function timedBuild(siteUrl, supabaseUrl) {
  const started = Date.now()
  const child = spawn('npm', ['run', '--silent', 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...env, NEXT_PUBLIC_SITE_URL: siteUrl, NEXT_PUBLIC_SUPABASE_URL: supabaseUrl },
  })
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(child.pid))), 200)
  const code = await new Promise((resolve) => child.on('exit', resolve))
  clearInterval(sampler)
  if (code !== 0) throw new Error(`build failed (${code})`)
  return { seconds: (Date.now() - started) / 1000, peakMiB: Math.round(peak / 1048576) }
}

async function firstLoadJs(base, path) {
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
const children = []
process.on('exit', () => children.forEach((child) => child.exitCode === null && child.kill('SIGTERM')))

console.log('Building (timed)…')
const build = await timedBuild(base, supabaseUrl)
children.push(spawn(process.execPath, ['local/supabase/server.ts', '--port', String(supabasePort), '--memory'], { stdio: 'ignore', env }))
children.push(spawn('next', ['start', '-p', String(sitePort), '-H', '127.0.0.1'], { stdio: 'ignore', env }))
await waitForHttp(base, { timeoutMs: 60_000 })

const js = {}
for (const locale of ['fr', 'en']) for (const path of ALL_PUBLIC) js[localized(path, locale)] = await firstLoadJs(base, localized(path, locale))

if (process.argv.includes('--js-only')) {
  for (const [path, value] of Object.entries(js)) console.log(`  ${path.padEnd(24)} ${String(value.kib).padStart(6)} KiB  (${value.scripts} scripts)`)
  process.exit(0)
}

/** Lighthouse (default mobile preset) on url: a warm-up run, then RUNS measured runs; the median run. */
async function measure(port, url) {
  await lighthouse(url, { port, output: 'json', logLevel: 'error' }) // warm-up run (server caches)
  const runs = []
  for (let run = 0; run < RUNS; run++) {
    const { lhr } = await lighthouse(url, { port, output: 'json', logLevel: 'error' })
    const category = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
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
async function startFloorSite() {
  const dir = '.bench-floor'
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(`${dir}/app`, { recursive: true })
  writeFileSync(`${dir}/next.config.mjs`, `export default { turbopack: { root: ${JSON.stringify(process.cwd())} } }\n`)
  writeFileSync(
    `${dir}/app/layout.js`,
    "export const metadata = { title: 'Floor', description: 'An empty Next.js page.' }\nexport default function Layout({ children }) { return <html lang=\"en\"><body>{children}</body></html> }\n",
  )
  writeFileSync(`${dir}/app/page.js`, 'export default function Page() { return <main><h1>Hello</h1><p>An empty Next.js page, the framework floor.</p></main> }\n')
  const built = await new Promise((resolve) => spawn('next', ['build', dir], { stdio: 'ignore', env }).on('exit', resolve))
  if (built !== 0) throw new Error(`floor build failed (${built})`)
  const port = await freePort()
  children.push(spawn('next', ['start', dir, '-p', String(port), '-H', '127.0.0.1'], { stdio: 'ignore', env }))
  await waitForHttp(`http://127.0.0.1:${port}`, { timeoutMs: 60_000 })
  return `http://127.0.0.1:${port}/`
}

const floorUrl = process.argv.includes('--no-floor') ? null : await startFloorSite()
const { default: lighthouse } = await importFrom(await lighthouseDir, 'lighthouse')
const chromeLauncher = await importFrom(await lighthouseDir, 'chrome-launcher')
const chrome = await chromeLauncher.launch({ chromePath: findChromium(), chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] })
const scores = {}
let floor = null
try {
  for (const locale of ['fr', 'en']) for (const path of PAGES) scores[localized(path, locale)] = await measure(chrome.port, base + localized(path, locale))
  if (floorUrl) floor = await measure(chrome.port, floorUrl)
} finally {
  await chrome.kill()
}

mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/site.json', JSON.stringify({ build, firstLoadJs: js, lighthouse: scores, floor }, null, 2))
console.log(`\nnext build: ${build.seconds.toFixed(1)} s, peak memory ${build.peakMiB} MiB`)
console.log('\nFirst-load JS (gzip):')
for (const [path, value] of Object.entries(js)) console.log(`  ${path.padEnd(24)} ${String(value.kib).padStart(6)} KiB  (${value.scripts} scripts)`)
console.log(`\nLighthouse (mobile, median of ${RUNS} runs): perf / a11y / best practices / SEO — LCP, TBT, CLS`)
const row = (label, s) =>
  console.log(`  ${label.padEnd(24)} ${s.performance} / ${s.accessibility} / ${s.bestPractices} / ${s.seo} — ${s.lcpMs} ms, ${s.tbtMs} ms, ${s.cls.toFixed(3)}  (perf of each run: ${s.performanceRuns.join(', ')})`)
for (const [path, s] of Object.entries(scores)) row(path, s)
if (floor) row('empty Next.js page', floor)
console.log(`  Lighthouse benchmark index of this machine: ${scores['/'].benchmarkIndex}`)
process.exit(0)
