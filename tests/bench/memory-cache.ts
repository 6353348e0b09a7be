// `npm run bench:cache-memory`: what a flood of distinct RSC segment prefetches with long URLs costs the
// production server's memory. Every one is shareable, so our server keeps each answer in its shared
// cache (server/memory-cache.ts) for 5 s: the cache's byte budget must hold with URLs, keys and headers
// counted, not only bodies. Sends BENCH_REQUESTS (6,000) prefetches of `/en?_rsc=<12–15 KB>` at
// BENCH_CONCURRENCY (50) to server/main.ts over the benchmarks' build (.next-bench), and prints the
// server's resident memory (VmRSS, Linux) before, at its highest during the flood, 6 s and 20 s after.
import { readFileSync } from 'node:fs'
import { freePort } from '@plume/twins/free-port'
import { startProcess } from '../../scripts/lib/supervisor.ts'
import { startBenchSite } from './bench-site.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50)
const logFile = benchLog('memory-cache', 'bench-results')

/** The resident memory of a process, in MB (Linux's /proc). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
const longToken = (index: number) => `${index.toString(36)}-${'x'.repeat(12_000 + (index % 3000))}`

const { cleanUp } = await startBenchSite(logFile)
try {
  const port = await freePort()
  const server = startProcess(process.execPath, ['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], { logFile })
  const origin = `http://127.0.0.1:${port}`
  await waitForServer(`${origin}/robots.txt`, logFile)
  const prefetch = (index: number) =>
    fetch(`${origin}/en?_rsc=${longToken(index)}`, {
      headers: {
        rsc: '1',
        'next-router-prefetch': '1',
        'next-router-segment-prefetch': '/_tree',
        'accept-encoding': 'br',
      },
    }).then(async (response) => {
      await response.arrayBuffer()
      return response.status
    })
  // Warm: the page and its payload are compiled and rendered once, as after a deploy's first visits.
  for (let index = 0; index < 20; index++) await prefetch(-1 - index)
  await new Promise((resolve) => setTimeout(resolve, 6000))
  const before = rssMb(server.pid!)
  let highest = before
  let next = 0
  const statuses = new Map<number, number>()
  const worker = async () => {
    while (next < REQUESTS) {
      const status = await prefetch(next++)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (next % 200 === 0) highest = Math.max(highest, rssMb(server.pid!))
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const seconds = (performance.now() - started) / 1000
  highest = Math.max(highest, rssMb(server.pid!))
  // What the flood left: V8 gives the garbage of a burst back once the process has been idle a while.
  const after: string[] = []
  for (const seconds of [6, 20]) {
    await new Promise((resolve) => setTimeout(resolve, (seconds - (after.length ? 6 : 0)) * 1000))
    const rss = rssMb(server.pid!)
    after.push(`${seconds} s after ${rss.toFixed(0)} MB (${rss >= before ? '+' : ''}${(rss - before).toFixed(0)})`)
  }
  console.log(`${REQUESTS} segment prefetches with 12–15 KB URLs, ${CONCURRENCY} at once, in ${seconds.toFixed(1)} s`)
  console.log(`statuses: ${[...statuses].map(([status, count]) => `${status} × ${count}`).join(', ')}`)
  console.log(
    `server memory (RSS): before ${before.toFixed(0)} MB, highest ${highest.toFixed(0)} MB ` +
      `(+${(highest - before).toFixed(0)}), ${after.join(', ')}`,
  )
} finally {
  await cleanUp()
}
