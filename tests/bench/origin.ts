// `npm run bench:origin`: how fast the origin serves each public page, under each way of serving the
// build, next to the framework's floor, in one run. Servers, one at a time on a free loopback port:
//  - `npm start`'s server (server/main.ts: policy completed with hashes, compression once per
//    page version, CDN cache headers; the container image runs the same server);
//  - plain `next start` on the same build (the portable policy, no compression: Next's is off);
//  - the floor: an empty Next.js page with one client button, built in .bench-floor/ from the installed
//    `next` in .bench-floor/origin/ (nothing of it is committed), served by `next start` with Next's
//    own compression.
// Load: wrk (Debian: `apt-get install -y wrk`), BENCH_CONNECTIONS (50) connections on 2 threads,
// BENCH_SECONDS (8) per page, gzip and brotli accepted. Prints req/s, p50, p99 and bytes per response
// for each page, the ratios to the floor (target: ≥ 0.5× its req/s, p99 ≤ 2× its p99), and the load
// average: on a shared machine absolute numbers move, the ratios in one run are what to compare.
// The site's build goes to .next-bench (rebuilt when sources change), read from a fresh local Content
// Lake on a free port.
import { spawnSync } from 'node:child_process'
import { get } from 'node:http'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { freePort } from '@plume/twins/free-port'
import { startProcess, stopProcess } from '../../scripts/lib/supervisor.ts'
import { PUBLIC_PATHS } from '../e2e/public-routes.ts'
import { buildFloorSite, FLOOR_DIR } from './floor-site.ts'
import { startBenchSite } from './bench-site.ts'
import { wrk, type WrkResult } from './wrk.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const PATHS = process.env.BENCH_PATHS ? process.env.BENCH_PATHS.split(',') : [...PUBLIC_PATHS, '/en']
// The builds' and servers' output (the table stays readable), named when one fails.
const logFile = benchLog('origin', 'bench-results')

if (spawnSync('wrk', ['--version']).error) {
  console.error('bench:origin needs wrk: apt-get install -y wrk (Debian/Ubuntu) or brew install wrk.')
  process.exit(1)
}
process.env.NEXT_TELEMETRY_DISABLED = '1'

type Server = {
  name: string
  command: string
  args: string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
  paths: string[]
}
const servers: Server[] = [
  {
    name: 'floor (empty page, next start)',
    command: resolve('node_modules/.bin/next'),
    args: ['start'],
    cwd: FLOOR_DIR,
    paths: ['/'],
  },
  { name: 'npm start (server/main.ts)', command: process.execPath, args: ['server/main.ts'], paths: PATHS },
  { name: 'next start', command: resolve('node_modules/.bin/next'), args: ['start'], paths: PATHS },
]

type Result = WrkResult

const load = (url: string, seconds = SECONDS) => wrk(url, { seconds, connections: CONNECTIONS })

/** The page's uncompressed size, on a connection of its own (a kept-alive one may have timed out). */
function htmlSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { 'accept-encoding': 'identity' } }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => (bytes += chunk.length))
      response.on('end', () => resolve(bytes))
    }).on('error', reject)
  })
}

const { cleanUp } = await startBenchSite(logFile)
try {
  await buildFloorSite(logFile)

  const results = new Map<string, Map<string, Result & { html: number }>>()
  const loadBefore = loadavg()
  for (const server of servers) {
    const port = await freePort()
    const child = startProcess(server.command, [...server.args, '-p', String(port), '-H', '127.0.0.1'], {
      cwd: server.cwd,
      env: { ...server.env, NODE_ENV: 'production' },
      logFile,
    })
    const base = `http://127.0.0.1:${port}`
    await waitForServer(`${base}/`, logFile)
    const byPath = new Map<string, Result & { html: number }>()
    for (const path of server.paths) {
      const html = await htmlSize(`${base}${path}`)
      await load(`${base}${path}`, 2) // warm-up: first renders, compression of each version
      byPath.set(path, { ...(await load(`${base}${path}`)), html })
      const r = byPath.get(path)!
      console.log(
        `  ${server.name.padEnd(40)} ${path.padEnd(26)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(7)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  ${(r.bytes / 1024).toFixed(1).padStart(6)} KB/response (HTML ${(r.html / 1024).toFixed(1)} KB)${r.errors ? `  ${r.errors} errors` : ''}`,
      )
    }
    results.set(server.name, byPath)
    await stopProcess(child)
  }
  const loadAfter = loadavg()

  const floor = [...results.values()][0].get('/')!
  console.log(
    `\nFloor: ${floor.perSecond.toFixed(0)} req/s, p99 ${floor.p99.toFixed(1)} ms. Ratios per page (req/s ÷ floor; p99 ÷ floor p99; target ≥ 0.50 and ≤ 2.00):`,
  )
  let missed = 0
  for (const [name, byPath] of [...results].slice(1)) {
    for (const [path, r] of byPath) {
      const speed = r.perSecond / floor.perSecond
      const tail = r.p99 / floor.p99
      const ok = speed >= 0.5 && tail <= 2
      if (!ok && name.startsWith('npm start')) missed++
      console.log(
        `  ${name.padEnd(40)} ${path.padEnd(26)} ${speed.toFixed(2)}×  p99 ${tail.toFixed(2)}×  ${ok ? 'meets' : 'misses'} the target`,
      )
    }
  }
  console.log(
    `\nLoad average (1/5/15 min): before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}`,
  )
  console.log(
    missed
      ? `npm start's server misses the target on ${missed} page(s).`
      : "npm start's server meets the target on every page.",
  )
} finally {
  await cleanUp()
}
