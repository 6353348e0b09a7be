// `node tests/bench/cache-purge.ts [--against <git ref>]`: what requests that are not a verified publish
// cost visitors. Visitors load `/` on BENCH_CONNECTIONS (50) kept-alive connections (wrk, as
// bench:origin: `apt-get install -y wrk`) while, beside them, BENCH_RATE (500) requests a second hit a
// missing file, `/_next/static/x.js`: once as GETs (the control: about the same work for the server,
// minus whatever a DELETE does to its shared cache), once as DELETEs. Printed: visitors' req/s, p50 and
// p99 under each, visitors served per second of the server's CPU time, the DELETEs' cost in both
// (target: < 5 %), and the rate of noise actually answered. BENCH_ROUNDS (9) rounds of BENCH_SECONDS
// (4) per phase, GET and DELETE alternating first, and the medians: on a shared machine the load moves,
// and a comparison within one round is what holds (per CPU-second, the least moved by other processes).
//
// The server is server/main.ts as the container image runs it (scripts/lib/standalone-folder.ts: the
// build's standalone folder, server/ and lib/security/, in a temporary folder, so the build's own
// folder is never written to), over any existing production build: what is measured is the server's
// code, not the build. The first of BENCH_DIST_DIR, .next-bench, .next and .next-test that holds a
// standalone build is used; none, and it says to run `npm run build`. Its pages never expire by time
// (checked: the prerender manifest), so no Content Lake is needed to serve `/`.
// `--against <git ref>` measures that commit's server/ and lib/security/ too, in the same run, round by
// round beside the working tree's (e.g. `--against HEAD` before committing a change to the server).
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { freePort } from '@plume/twins/free-port'
import { makeStandaloneFolder } from '../../scripts/lib/standalone-folder.ts'
import { startProcess, stopProcess } from '../../scripts/lib/supervisor.ts'
import { wrk } from './wrk.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const RATE = Number(process.env.BENCH_RATE ?? 500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9)
const NOISE_PATH = '/_next/static/x.js'
const TARGET = 0.05
const { values: flags } = parseArgs({ options: { against: { type: 'string' } } })
const logFile = benchLog('cache-purge', 'bench-results')

if (spawnSync('wrk', ['--version']).error) {
  console.error('bench:cache-purge needs wrk: apt-get install -y wrk (Debian/Ubuntu) or brew install wrk.')
  process.exit(1)
}
process.env.NEXT_TELEMETRY_DISABLED = '1'

const distDir = [process.env.BENCH_DIST_DIR, '.next-bench', '.next', '.next-test'].find(
  (dir): dir is string =>
    dir !== undefined && existsSync(join(dir, 'BUILD_ID')) && existsSync(join(dir, 'standalone', 'server.js')),
)
if (!distDir) {
  console.error('bench:cache-purge serves an existing production build: run `npm run build` first.')
  process.exit(1)
}
const routes = JSON.parse(readFileSync(join(distDir, 'prerender-manifest.json'), 'utf8')).routes as Record<
  string,
  { initialRevalidateSeconds?: number | false }
>
if (typeof routes['/fr']?.initialRevalidateSeconds === 'number')
  console.warn(`⚠ ${distDir}'s home page expires by time: its regeneration (without a Content Lake) adds noise.`)

type Visitors = { perSecond: number; p50: number; p99: number; errors: number; perCpuSecond: number }
type Round = { get: Visitors; delete: Visitors; sent: { get: number; delete: number } }

/** The CPU time a process has used so far, in seconds (Linux's /proc: user and system ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const load = (url: string, seconds: number) => wrk(url, { seconds, connections: CONNECTIONS, logFile })

/**
 * Sends `method NOISE_PATH` at RATE a second (open loop: on schedule, whatever the answers' pace) until
 * stopped; resolves to the rate actually answered. A few kept-alive sockets, as one client would use;
 * at most MAX_IN_FLIGHT waiting at once (a request due beyond that is skipped, not queued: a server
 * that falls behind would otherwise face a backlog that outlives the round).
 */
const MAX_IN_FLIGHT = 64
function noise(port: number, method: string): { stop: () => Promise<number> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  const started = performance.now()
  let due = 0
  let answered = 0
  let inFlight = 0
  const tick = setInterval(() => {
    const total = Math.floor(((performance.now() - started) / 1000) * RATE)
    for (; due < total; due++) {
      if (inFlight >= MAX_IN_FLIGHT) continue
      inFlight++
      const done = () => inFlight--
      request({ host: '127.0.0.1', port, path: NOISE_PATH, method, agent }, (response) => {
        response.resume()
        response.once('end', () => answered++)
      })
        .once('close', done)
        .on('error', () => {})
        .end()
    }
  }, 5)
  return {
    stop: async () => {
      clearInterval(tick)
      const rate = answered / ((performance.now() - started) / 1000)
      agent.destroy()
      return rate
    },
  }
}

/**
 * One round: visitors under GET noise and under DELETE noise, in the given order. Besides req/s, the
 * visitors served per second of the server's own CPU time: the server is saturated, so this does not
 * move with the share of the cores other processes leave it, which req/s does on a shared machine.
 */
async function round(port: number, pid: number, order: ['GET', 'DELETE'] | ['DELETE', 'GET']): Promise<Round> {
  const result: Partial<Round> = { sent: { get: 0, delete: 0 } }
  for (const method of order) {
    const sender = noise(port, method)
    const cpuBefore = cpuSeconds(pid)
    const measured = await load(`http://127.0.0.1:${port}/`, SECONDS)
    const cpu = cpuSeconds(pid) - cpuBefore
    const rate = await sender.stop()
    const visitors = { ...measured, perCpuSecond: cpu > 0 ? (measured.perSecond * SECONDS) / cpu : 0 }
    if (method === 'GET') [result.get, result.sent!.get] = [visitors, rate]
    else [result.delete, result.sent!.delete] = [visitors, rate]
  }
  return result as Round
}

/** The image's folder with `ref`'s server/ and lib/security/ (the working tree's when ref is null). */
function serverFolder(ref: string | null): string {
  const folder = mkdtempSync(join(tmpdir(), 'plume-bench-purge-'))
  makeStandaloneFolder(folder, { distDir })
  if (ref !== null) {
    for (const part of ['server', 'lib/security']) rmSync(join(folder, part), { recursive: true, force: true })
    const archive = execFileSync('git', ['archive', ref, 'server', 'lib/security'])
    execFileSync('tar', ['-x', '-C', folder], { input: archive })
  }
  return folder
}

const cost = (r: Round) => 1 - r.delete.perSecond / r.get.perSecond
const cpuCost = (r: Round) => 1 - r.delete.perCpuSecond / r.get.perCpuSecond
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const percent = (value: number) => `${(value * 100).toFixed(1).padStart(5)} %`
const line = (what: string, v: Visitors) =>
  `${what.padEnd(20)} ${v.perSecond.toFixed(0).padStart(6)} req/s  p50 ${v.p50.toFixed(1).padStart(6)} ms  p99 ${v.p99.toFixed(1).padStart(6)} ms  ${v.perCpuSecond.toFixed(0).padStart(6)} per CPU-s${v.errors ? `  ${v.errors} errors` : ''}`

console.log(
  `Build: ${distDir}. Visitors: GET / on ${CONNECTIONS} connections, ${SECONDS} s; noise: ${RATE}/s to ${NOISE_PATH}; ${ROUNDS} rounds.`,
)
type Variant = { name: string; ref: string | null; folder: string; port: number; pid: number; rounds: Round[] }
const variants: Variant[] = []
const children: ChildProcess[] = []
const loadBefore = loadavg()
try {
  // Every server is up for the whole run, and each round measures each in turn: a machine whose load
  // moves during the run moves every variant's numbers alike.
  for (const { name, ref } of [
    ...(flags.against ? [{ name: `server at ${flags.against}`, ref: flags.against }] : []),
    { name: 'server in the working tree', ref: null },
  ]) {
    const folder = serverFolder(ref)
    const port = await freePort()
    const child = startProcess(process.execPath, ['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: folder,
      env: { NODE_ENV: 'production', NEXT_DIST_DIR: distDir },
      logFile,
    })
    children.push(child)
    variants.push({ name, ref, folder, port, pid: child.pid!, rounds: [] })
    await waitForServer(`http://127.0.0.1:${port}/`, logFile)
    await load(`http://127.0.0.1:${port}/`, 2) // warm-up: first renders, compression, the policy's hashes
  }
  for (let index = 0; index < ROUNDS; index++) {
    console.log(`\nround ${index + 1}`)
    for (const variant of index % 2 === 0 ? variants : variants.toReversed()) {
      const r = await round(variant.port, variant.pid, index % 2 === 0 ? ['GET', 'DELETE'] : ['DELETE', 'GET'])
      variant.rounds.push(r)
      console.log(`  ${variant.name}`)
      console.log(`    ${line(`GET noise (${r.sent.get.toFixed(0)}/s)`, r.get)}`)
      console.log(`    ${line(`DELETE noise (${r.sent.delete.toFixed(0)}/s)`, r.delete)}`)
      console.log(`    cost of the DELETEs: ${percent(cost(r))} of req/s, ${percent(cpuCost(r))} per CPU-s`)
    }
  }
} finally {
  for (const child of children) await stopProcess(child)
  for (const { folder } of variants) rmSync(folder, { recursive: true, force: true })
}
console.log(`\nWhat ${RATE} DELETE/s cost visitors of / against the same rate of GETs (median of ${ROUNDS} rounds):`)
for (const { name, rounds } of variants) {
  const [byRate, byCpu] = [median(rounds.map(cost)), median(rounds.map(cpuCost))]
  const p99 = (pick: (r: Round) => number) => median(rounds.map(pick)).toFixed(1)
  console.log(
    `  ${name.padEnd(30)} ${percent(byRate)} of req/s, ${percent(byCpu)} per CPU-s; p99 ${p99((r) => r.get.p99)} → ${p99((r) => r.delete.p99)} ms  (${Math.max(byRate, byCpu) < TARGET ? 'meets' : 'misses'} the < ${TARGET * 100} % target)`,
  )
}
const loadAfter = loadavg()
console.log(
  `Load average (1/5/15 min): before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}`,
)
