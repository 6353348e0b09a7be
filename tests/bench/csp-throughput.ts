// `npm run bench:csp`: requests per second of a static page through the production server
// (server/main.ts: each HTML answer's Content-Security-Policy completed with its inline scripts'
// hashes), against the same build served the way it was before that policy (Next.js's handler behind
// compression only (the same once-per-version compression), as `next start` with Next's own compression did). One run, same build, same
// machine, rounds alternated; the median round of each is reported. Needs a build (`npm run build`,
// or BENCH_DIST_DIR) and, for its content, the local Content Lake that build read (`npm start`).
import type { ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { benchLog, percentile, waitForServer } from './bench-kit.ts'
import { freePort } from '@plume/twins/free-port'
import { startProcess, stopProcess } from '../../scripts/lib/supervisor.ts'

const PATHS = (process.env.BENCH_PATHS ?? '/,/en/about').split(',')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const distDir = process.env.BENCH_DIST_DIR ?? process.env.NEXT_DIST_DIR ?? '.next'
const logFile = benchLog('csp-throughput', 'bench-results')

// The baseline server: what server/main.ts does minus the policy completion (and its memory cache and
// CDN headers): Next.js's handler behind the same compression stage, caught the same way.
const BASELINE = `
import { createServer } from 'node:http'
import { CompressionMemo, compressionStage } from './server/compression-stage.ts'
import { interceptResponse } from './server/intercept-response.ts'
process.env.NODE_ENV = 'production'
const { default: next } = await import('next')
const port = Number(process.argv[1])
const app = next({ dev: false, dir: process.cwd(), hostname: '127.0.0.1', port })
await app.prepare()
const handle = app.getRequestHandler()
const compression = compressionStage(new CompressionMemo())
createServer((req, res) => {
  const arrived = { method: req.method, url: req.url, headers: { ...req.headers } }
  interceptResponse(res, {
    decide: (head) => (req.method !== 'HEAD' && compression.wantsBody(head, arrived) ? 'hold' : 'stream'),
    transform: (response) => compression.apply(response, arrived),
  })
  handle(req, res)
}).listen(port, '127.0.0.1')
`

async function start(kind: 'baseline' | 'policy'): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort()
  const options = { env: { NEXT_DIST_DIR: distDir }, logFile }
  const child =
    kind === 'policy'
      ? startProcess(process.execPath, ['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], options)
      : startProcess(process.execPath, ['--input-type=module', '-e', BASELINE, String(port)], options)
  const url = `http://127.0.0.1:${port}`
  await waitForServer(`${url}/`, logFile)
  return { child, url }
}

/** Requests completed in SECONDS by CONCURRENCY keep-alive clients asking for `path` (gzip accepted). */
async function load(url: string, path: string): Promise<{ perSecond: number; bytes: number; policy: string }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const deadline = performance.now() + SECONDS * 1000
  let done = 0
  let bytes = 0
  let policy = ''
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        `${url}${path}`,
        { agent, headers: { 'accept-encoding': 'gzip', accept: 'text/html' } },
        (res) => {
          policy = String(res.headers['content-security-policy'] ?? '')
          res.on('data', (chunk: Buffer) => (bytes += chunk.length))
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`${path}: HTTP ${res.statusCode}`)),
          )
        },
      )
      req.on('error', reject)
      req.end()
    })
  const client = async () => {
    while (performance.now() < deadline) {
      await once()
      done++
    }
  }
  // A warm-up, then the measured window.
  for (let i = 0; i < 50; i++) await once()
  bytes = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, client))
  agent.destroy()
  return { perSecond: done / ((performance.now() - started) / 1000), bytes: bytes / Math.max(done, 1), policy }
}

const median = (values: number[]) => percentile(values, 50)
const results: Record<string, Record<'baseline' | 'policy', number[]>> = {}
for (let round = 1; round <= ROUNDS; round++) {
  for (const kind of ['baseline', 'policy'] as const) {
    const { child, url } = await start(kind)
    try {
      for (const path of PATHS) {
        const { perSecond, bytes, policy } = await load(url, path)
        const hashes = policy.match(/'sha256-/g)?.length ?? 0
        if (kind === 'policy' && hashes === 0) throw new Error(`${path}: the policy server sent no hashes`)
        ;(results[path] ??= { baseline: [], policy: [] })[kind].push(perSecond)
        console.log(
          `round ${round} ${kind.padEnd(8)} ${path.padEnd(12)} ${perSecond.toFixed(0)} req/s, ${(bytes / 1024).toFixed(1)} KiB/answer, ${hashes} hashes`,
        )
      }
    } finally {
      await stopProcess(child)
    }
  }
}
console.log(`\nMedian of ${ROUNDS} rounds, ${SECONDS} s each, ${CONCURRENCY} keep-alive clients:`)
for (const [path, { baseline, policy }] of Object.entries(results)) {
  const ratio = median(policy) / median(baseline)
  console.log(
    `${path.padEnd(12)} before ${median(baseline).toFixed(0)} req/s, with the policy ${median(policy).toFixed(0)} req/s: ${(ratio * 100).toFixed(1)}%`,
  )
}
