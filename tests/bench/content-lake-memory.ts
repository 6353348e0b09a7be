// `npm run bench:lake-memory`: the memory
// attack of issue #20 — 60 anonymous queries of 3.9 MB each, with distinct parameters, against a local
// Content Lake in its own process — and the server's peak resident memory (VmHWM, Linux) afterwards, and
// whether it still answers.
import { readFileSync } from 'node:fs'
import { freePort } from '@plume/twins/free-port'
import { CONTENT_LAKE } from '@plume/twins/twins'
import { benchLog, waitForServer } from './bench-kit.ts'
import { startNode, stopProcess } from '../../scripts/lib/supervisor.ts'

const BODIES = 60
const port = await freePort()
// Its output goes to a file, read at the end for the reason it died, if it did.
const logFile = benchLog('content-lake-memory')
const child = startNode(CONTENT_LAKE.script, ['--memory', '--no-webhook', '--port', String(port)], { logFile })
await waitForServer(`http://127.0.0.1:${port}/v1/ping`, logFile)

const peak = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
console.log(`[bench] peak resident memory before: ${peak().toFixed(0)} MB`)

// Each body: ~3.9 MB of small objects, different in every request.
const body = (n: number) => {
  const items = Array.from({ length: 3.9e6 / 16 }, (_, i) => `{"a":${(i + n) % 10}}`).join(',')
  return `{"query":"count($p)","params":{"n":${n},"p":[${items}]}}`
}
const statuses = await Promise.all(
  Array.from({ length: BODIES }, (_, n) =>
    fetch(`http://127.0.0.1:${port}/v2025-02-19/data/query/production`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body(n),
    })
      .then((response) => response.status)
      .catch(() => 'connection error'),
  ),
)
const counts: Record<string, number> = {}
for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
const alive = child.exitCode === null ? peak() : 0
console.log(`[bench] answers: ${JSON.stringify(counts)}`)
// (Its own banner says "in memory": V8's last words say "heap" or "out of memory".)
const reason = () =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .find((line) => /heap|out of memory/i.test(line)) ?? ''
console.log(
  child.exitCode === null
    ? `[bench] peak resident memory after: ${alive.toFixed(0)} MB; still running`
    : `[bench] the server died (exit ${child.exitCode}): ${reason()}`,
)
await stopProcess(child)
