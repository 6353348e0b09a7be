// `npm run bench:replicas`: several replicas of the site sharing what is published through Redis
// (REDIS_URL: lib/cache/shared-cache-handler.mjs). Printed:
// - publish → new words: BENCH_PUBLISHES (20) edits of the home page's title published through the
//   Content Lake, whose webhook reaches replica A only; how long until replica B (which it never reaches)
//   serves the new title, and A for comparison (median, p95; polled every 20 ms);
// - requests per second on `/` (wrk, BENCH_CONNECTIONS (50) connections per loaded replica, BENCH_SECONDS
//   (4) a load, BENCH_ROUNDS (4) rounds, each starting with the next phase, medians): one replica alone without Redis, one with,
//   and two replicas loaded together, without and with Redis (each one's, and their sum).
// Every replica is server/main.ts (`npm start`'s server) over the benchmark build (.next-bench,
// tests/bench/bench-site.ts), read from a fresh Content Lake; Redis is Debian's redis-server on a free
// loopback port (scripts/lib/redis-server.ts installs it when it can). Needs wrk (`apt-get install -y wrk`).
import { spawnSync, type ChildProcess } from 'node:child_process'
import { freePort } from '@plume/twins/free-port'
import { startRedisServer } from '../../scripts/lib/redis-server.ts'
import { startProcess, stopProcess } from '../../scripts/lib/supervisor.ts'
import { startBenchSite } from './bench-site.ts'
import { wrk, type WrkResult } from './wrk.ts'
import { benchLog, percentile, waitForServer } from './bench-kit.ts'

const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 20)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4)
const logFile = benchLog('replicas', 'bench-results')

if (spawnSync('wrk', ['--version']).error) {
  console.error('bench:replicas needs wrk: apt-get install -y wrk (Debian/Ubuntu) or brew install wrk.')
  process.exit(1)
}

const ports = { a: await freePort(), b: await freePort(), alone: await freePort(), other: await freePort() }
const url = (port: number) => `http://127.0.0.1:${port}`
const { cleanUp } = await startBenchSite(logFile, { webhookTo: url(ports.a) })
const redis = await startRedisServer({ port: await freePort() })
const started: ChildProcess[] = []
try {
  // A and B share Redis (the webhook reaches A); `alone` and `other` are the same server without it.
  const replica = async (port: number, redisUrl?: string) => {
    const env = { PORT: String(port), ...(redisUrl ? { REDIS_URL: redisUrl } : {}) }
    started.push(
      startProcess(process.execPath, ['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], { env, logFile }),
    )
    await waitForServer(`${url(port)}/robots.txt`, logFile)
  }
  await replica(ports.a, redis.url)
  await replica(ports.b, redis.url)
  await replica(ports.alone)
  await replica(ports.other)

  const lake = process.env.SANITY_PROJECT_API_URL!
  const { token } = (await (await fetch(`${lake}/v1/auth/local-token`)).json()) as { token: string }
  const publishTitle = async (title: string) => {
    const response = await fetch(`${lake}/v2025-02-19/data/mutate/production`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mutations: [{ patch: { id: 'homePage', set: { 'hero.title.fr': title } } }] }),
    })
    if (!response.ok) throw new Error(`publish: HTTP ${response.status}`)
  }
  /** Milliseconds from `since` until the replica's home page shows `title` (a visitor's request, no no-cache). */
  const shows = async (port: number, title: string, since: number) => {
    for (;;) {
      if ((await (await fetch(`${url(port)}/`)).text()).includes(title)) return performance.now() - since
      if (performance.now() - since > 30_000) throw new Error(`${url(port)} does not show "${title}" after 30 s`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  console.log(`▶ ${PUBLISHES} publishes (the webhook reaches A; B hears through Redis)`)
  const toA: number[] = []
  const toB: number[] = []
  for (let index = 0; index < PUBLISHES; index++) {
    for (const port of [ports.a, ports.b]) await fetch(`${url(port)}/`) // both hold the page
    const title = `Bench ${Date.now().toString(36)} ${index}`
    const since = performance.now()
    await publishTitle(title)
    const [a, b] = await Promise.all([shows(ports.a, title, since), shows(ports.b, title, since)])
    toA.push(a)
    toB.push(b)
  }

  const load = (port: number) => wrk(`${url(port)}/`, { seconds: SECONDS, connections: CONNECTIONS, logFile })
  const phases: Record<string, () => Promise<WrkResult[]>> = {
    'one replica, no Redis': async () => [await load(ports.alone)],
    'one replica, Redis': async () => [await load(ports.a)],
    'two replicas, no Redis': () => Promise.all([load(ports.alone), load(ports.other)]),
    'two replicas, Redis': () => Promise.all([load(ports.a), load(ports.b)]),
  }
  for (const port of Object.values(ports)) await load(port) // warm-up: renders, compression
  const measured = new Map<string, WrkResult[][]>(Object.keys(phases).map((name) => [name, []]))
  // Each round starts with the next phase: none always follows the same one on a shared machine.
  const order = Object.entries(phases)
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of [...order.slice(round % order.length), ...order.slice(0, round % order.length)])
      measured.get(name)!.push(await run())

  const ms = (value: number) => `${Math.round(value)} ms`
  const median = (values: number[]) => percentile(values, 50)
  console.log(`\nPublish → new words (${PUBLISHES} publishes)`)
  console.log(`  replica A (webhook):    median ${ms(median(toA))}, p95 ${ms(percentile(toA, 95))}`)
  console.log(`  replica B (via Redis):  median ${ms(median(toB))}, p95 ${ms(percentile(toB, 95))}`)
  console.log(
    `\nRequests per second on / (medians of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections each)`,
  )
  const alone = median(measured.get('one replica, no Redis')!.map(([result]) => result.perSecond))
  for (const [name, rounds] of measured) {
    const each = rounds[0].map((_, index) => median(rounds.map((round) => round[index].perSecond)))
    const sum = median(rounds.map((round) => round.reduce((total, result) => total + result.perSecond, 0)))
    const errors = rounds.flat().reduce((total, result) => total + result.errors, 0)
    console.log(
      `  ${name.padEnd(24)} ${each.map((value) => value.toFixed(0)).join(' + ')}${each.length > 1 ? ` = ${sum.toFixed(0)}` : ''} req/s (${((sum / alone) * 100).toFixed(0)} % of one alone)${errors ? `, ${errors} errors` : ''}`,
    )
  }
} finally {
  for (const child of started) await stopProcess(child)
  await redis.stop()
  await cleanUp()
}
