// `npm run bench:contact`: 2,000 contact submissions at concurrency 50 through the local server
// (on disk, as `npm start` runs it; every submission from its own visitor address, so the per-address
// rate limit is exercised but not hit), then the same load with the server killed -9 in the middle:
// after a restart, is every acknowledged submission still stored?
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@plume/twins/free-port'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '@plume/twins/defaults'
import { contactSettingsSql } from '../../scripts/lib/settings-sql.ts'
import { beforeShutdown, startProcess, stopAll, stopProcess } from '../../scripts/lib/supervisor.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

const TOTAL = Number(process.env.BENCH_TOTAL ?? 2000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50)
const dataDir = mkdtempSync(join(tmpdir(), 'bench-contact-'))
const port = await freePort()
const url = `http://127.0.0.1:${port}`
const logFile = benchLog('contact-throughput', 'bench-results')
// Interrupted (Ctrl-C): the database goes once the server has stopped writing to it.
beforeShutdown(async () => {
  await stopAll()
  rmSync(dataDir, { recursive: true, force: true })
})

function startNode(): ChildProcess {
  return startProcess(
    process.execPath,
    [
      'twins/supabase/supabase-server.ts',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--trusted-proxy-hops',
      '2',
      '--db-port',
      'off',
      ...contactSettingsSql({ trustedProxyHops: 2 }).flatMap((sql) => ['--sql', sql]),
    ],
    { logFile },
  )
}

let visitor = 0
/** Each submission comes from its own visitor address (via one trusted proxy), as on a real site. */
const nextAddress = () => {
  visitor++
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`
}

async function submit(marker: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now()
  try {
    const response = await fetch(`${url}/rest/v1/contact_submissions`, {
      method: 'POST',
      headers: {
        apikey: LOCAL_ANON_KEY,
        Authorization: `Bearer ${LOCAL_ANON_KEY}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': nextAddress(),
      },
      body: JSON.stringify({
        name: 'Bench Client',
        email: 'bench@example.fr',
        phone: null,
        message: `Benchmark message ${marker}`,
        package: 'Growth',
      }),
    })
    await response.arrayBuffer()
    return { ok: response.status === 201, ms: performance.now() - started }
  } catch {
    return { ok: false, ms: performance.now() - started }
  }
}

async function load(prefix: string, total: number, onAck?: (done: number) => void) {
  const latencies: number[] = []
  const acknowledged: string[] = []
  let next = 0
  let failed = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const marker = `${prefix}-${next++}`
        const result = await submit(marker)
        latencies.push(result.ms)
        if (result.ok) {
          acknowledged.push(marker)
          onAck?.(acknowledged.length)
        } else failed++
      }
    }),
  )
  return { seconds: (performance.now() - started) / 1000, latencies, acknowledged, failed }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

async function storedMarkers(prefix: string): Promise<Set<string>> {
  const markers = new Set<string>()
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(
      `${url}/rest/v1/contact_submissions?select=message&message=like.*${prefix}-*&order=id&limit=1000&offset=${offset}`,
      {
        headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
      },
    )
    const rows = (await response.json()) as { message: string }[]
    for (const row of rows) markers.add(row.message.replace('Benchmark message ', ''))
    if (rows.length < 1000) return markers
  }
}

let server = startNode()
try {
  await waitForServer(`${url}/auth/v1/health`, logFile)
  await load('warmup', 100)

  const run = await load('run', TOTAL)
  const stored = await storedMarkers('run')
  console.log(`\nLocal server, ${TOTAL} submissions at concurrency ${CONCURRENCY} (database on disk)`)
  console.log(
    `  throughput      ${(run.acknowledged.length / run.seconds).toFixed(0)} submissions/s (${run.seconds.toFixed(2)} s)`,
  )
  console.log(`  latency p50     ${percentile(run.latencies, 50).toFixed(1)} ms`)
  console.log(`  latency p99     ${percentile(run.latencies, 99).toFixed(1)} ms   (target ≤ 50 ms)`)
  console.log(
    `  acknowledged    ${run.acknowledged.length}, failed ${run.failed}, stored ${stored.size} → ${stored.size === run.acknowledged.length ? 'equal' : 'MISMATCH'}`,
  )

  // Crash test: kill -9 once about half the submissions are acknowledged.
  let killed = false
  const crash = await load('crash', TOTAL, (done) => {
    if (!killed && done >= TOTAL / 2) {
      killed = true
      server.kill('SIGKILL')
    }
  })
  await new Promise((resolve) =>
    server.exitCode !== null || server.signalCode !== null ? resolve(null) : server.once('exit', resolve),
  )
  server = startNode()
  await waitForServer(`${url}/auth/v1/health`, logFile)
  const survived = await storedMarkers('crash')
  const lost = crash.acknowledged.filter((marker) => !survived.has(marker))
  console.log(`\nkill -9 in the middle of a second run of ${TOTAL}`)
  console.log(`  acknowledged before the kill   ${crash.acknowledged.length} (the rest failed: connection refused)`)
  console.log(`  stored after restart           ${survived.size}`)
  console.log(
    `  acknowledged but lost          ${lost.length} → ${lost.length === 0 ? 'every acknowledged submission survived' : 'DATA LOSS'}`,
  )
  process.exitCode = lost.length === 0 && stored.size === run.acknowledged.length ? 0 : 1
} finally {
  await stopProcess(server)
  rmSync(dataDir, { recursive: true, force: true })
}
