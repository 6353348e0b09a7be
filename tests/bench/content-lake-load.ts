// `npm run bench:lake-load` (`-- a`, `-- b` or `-- c`: that one only): the three ways an
// anonymous client on the local Content Lake's port kept the editor waiting (the lake is reachable by
// any page of a developer's browser), each against a fresh lake in its own process (seeded, in memory):
//   (a) 12 listeners whose filter costs a third of a second per document (a 1.8 KB filter, a
//       300-item parameter), then the editor's writes and queries;
//   (b) 8 anonymous queries that run until the 10 s limit, then the editor's trivial queries and writes;
//   (c) 700 listeners that never read, one 200 KB publish, then the editor's writes and queries,
//       and the lake's resident memory (VmRSS, Linux) before, after the publish and after they closed.
// Prints the editor's write and query latency (p50 / max) under each, and what the anonymous
// clients got. Target: the editor answered within 2 s, the lake growing by at most 100 MB.
import { readFileSync } from 'node:fs'
import { request as httpRequest, type ClientRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { freePort } from '@plume/twins/free-port'
import { CONTENT_LAKE } from '@plume/twins/twins'
import { benchLog, benchOptions, percentile, waitForServer } from './bench-kit.ts'
import { startNode, stopProcess } from '../../scripts/lib/supervisor.ts'

const API = '/v2025-02-19'
const logFile = benchLog('content-lake-load')
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Lake = { url: string; port: number; token: string; pid: number; stop: () => Promise<void> }

async function startLake(): Promise<Lake> {
  const port = await freePort()
  // In memory (no dataDir), seeded, no webhook.
  const child = startNode(
    CONTENT_LAKE.script,
    CONTENT_LAKE.args({ port, seedDir: benchOptions().seedDir, webhook: false }),
    { logFile },
  )
  const url = `http://127.0.0.1:${port}`
  await waitForServer(`${url}/v1/ping`, logFile)
  const { token } = (await (await fetch(`${url}/v1/auth/local-token`)).json()) as { token: string }
  return { url, port, token, pid: child.pid!, stop: () => stopProcess(child) }
}

/** The editor's write and query, each timed from request to parsed answer. */
function editor(lake: Lake) {
  const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${lake.token}` }
  const timed = async (path: string, body: unknown) => {
    const started = performance.now()
    // A connection the lake closed while it could not answer (its keep-alive ran out) is retried, as
    // @sanity/client retries: the time counts from the first attempt.
    let response: Response | undefined
    for (let attempt = 1; !response; attempt++) {
      response = await fetch(`${lake.url}${API}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).catch(
        (error: unknown) => {
          if (attempt === 3) throw error
          return undefined
        },
      )
    }
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    await response.json()
    return performance.now() - started
  }
  let n = 0
  return {
    write: (doc: Record<string, unknown> = {}) =>
      timed('/data/mutate/production', {
        mutations: [{ createOrReplace: { _id: 'bench-load', _type: 'benchLoad', n: n++, ...doc } }],
      }),
    query: () => timed('/data/query/production', { query: 'count(*[_type == "service"])' }),
  }
}

/** Several rounds of one editor write then one editor query; their latencies. */
async function measureEditor(lake: Lake, rounds: number) {
  const { write, query } = editor(lake)
  const writes: number[] = []
  const queries: number[] = []
  for (let i = 0; i < rounds; i++) {
    writes.push(await write())
    queries.push(await query())
  }
  return { writes, queries }
}

const ms = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(0).padStart(6)} ms  max ${Math.max(...values)
    .toFixed(0)
    .padStart(6)} ms`
function report(label: string, { writes, queries }: { writes: number[]; queries: number[] }) {
  console.log(`${label.padEnd(44)} writes ${ms(writes)}   queries ${ms(queries)}`)
}

/** A listener that reads what it is sent, as an EventSource does; resolves with its status once answered. */
function readingListener(lake: Lake, query: string, params: Record<string, unknown>) {
  const search = new URLSearchParams({ query })
  for (const [key, value] of Object.entries(params)) search.set(`$${key}`, JSON.stringify(value))
  let refused = false
  let request: ClientRequest | undefined
  const answered = new Promise<number>((resolve) => {
    request = httpRequest({ host: '127.0.0.1', port: lake.port, path: `${API}/data/listen/production?${search}` })
    request.on('response', (response) => {
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (refused ||= chunk.includes('event: channelError')))
      response.on('error', () => {})
      resolve(response.statusCode ?? 0)
    })
    request.on('error', () => resolve(0))
    request.end()
  })
  return { answered, refused: () => refused, close: () => request?.destroy() }
}

async function attackA() {
  const lake = await startLake()
  try {
    report('(a) at rest', await measureEditor(lake, 5))
    const p = Array.from({ length: 300 }, (_, i) => i)
    // The review's filter was 1.8 KB: the costly part, then ids it never matches.
    const padding = Array.from({ length: 185 }, (_, i) => `"pad-${i}"`).join(',')
    const filter = `*[count($p[count($p[@ in $p]) > 0]) > 0 && !(_id in [${padding}])]`
    const listeners = Array.from({ length: 12 }, () => readingListener(lake, filter, { p }))
    const statuses = await Promise.all(listeners.map((listener) => listener.answered))
    report(`(a) 12 listeners, ${filter.length} B filter`, await measureEditor(lake, 5))
    // Their filters run (or wait) on the anonymous thread meanwhile: give them time to be refused.
    for (let waited = 0; waited < 30_000 && !listeners.every((listener) => listener.refused()); waited += 250)
      await sleep(250)
    const errors = listeners.filter((listener) => listener.refused()).length
    console.log(`    listeners answered ${JSON.stringify(count(statuses))}; closed with a channelError: ${errors}`)
    for (const listener of listeners) listener.close()
  } finally {
    await lake.stop()
  }
}

async function attackB() {
  const lake = await startLake()
  try {
    report('(b) at rest', await measureEditor(lake, 5))
    const nested = (depth: number): string => (depth === 0 ? '_id != ""' : `count(*[${nested(depth - 1)}])>0`)
    const slow = Array.from({ length: 8 }, () =>
      fetch(`${lake.url}${API}/data/query/production`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: `count(*[${nested(6)}])` }),
      })
        .then((response) => response.status)
        .catch(() => 0),
    )
    await sleep(500) // they are taken or queued
    report('(b) 8 anonymous 10 s queries', await measureEditor(lake, 5))
    console.log(`    anonymous slow queries answered ${JSON.stringify(count(await Promise.all(slow)))}`)
  } finally {
    await lake.stop()
  }
}

/** A listener that sends its request and never reads a byte of the answer. */
function silentListener(lake: Lake): Socket {
  const socket = connect({ host: '127.0.0.1', port: lake.port })
  socket.on('error', () => {})
  socket.on('connect', () => {
    const query = encodeURIComponent('*[_type == "benchBig"]')
    socket.write(
      `GET ${API}/data/listen/production?query=${query}&includePreviousRevision=true&effectFormat=mendoza HTTP/1.1\r\nHost: 127.0.0.1:${lake.port}\r\n\r\n`,
    )
    socket.pause() // reads nothing: the kernel's buffers fill, then the server's
  })
  return socket
}

async function attackC() {
  const lake = await startLake()
  try {
    report('(c) at rest', await measureEditor(lake, 5))
    await sleep(2000)
    const before = rssMb(lake.pid)
    const sockets: Socket[] = []
    for (let i = 0; i < 700; i++) {
      sockets.push(silentListener(lake))
      if (i % 50 === 49) await sleep(50)
    }
    await sleep(2000)
    const { write } = editor(lake)
    const big = 'x'.repeat(200 * 1024)
    const publish = await write({ _id: 'bench-big', _type: 'benchBig', body: big })
    await sleep(2000)
    const afterPublish = rssMb(lake.pid)
    const measured = await measureEditor(lake, 5)
    measured.writes.unshift(publish)
    report('(c) 700 silent listeners, 200 KB publish', measured)
    // Read what each got: its status, and whether the lake ended it (once its bytes are read).
    const outcomes = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<string>((resolve) => {
            let status = ''
            socket.setEncoding('latin1')
            socket.on('data', (chunk: string) => (status ||= chunk.slice(9, 12)))
            socket.on('close', () => resolve(`${status || 'no answer'}, then closed by the lake`))
            setTimeout(() => resolve(`${status || 'no answer'}, still open`), 3000)
            socket.resume()
          }),
      ),
    )
    for (const socket of sockets) socket.destroy()
    await sleep(3000)
    const afterClose = rssMb(lake.pid)
    console.log(`    the silent listeners: ${JSON.stringify(count(outcomes))}`)
    console.log(
      `    lake RSS before ${before.toFixed(0)} MB, after the publish ${afterPublish.toFixed(0)} MB (+${(afterPublish - before).toFixed(0)}), after the listeners closed ${afterClose.toFixed(0)} MB (+${(afterClose - before).toFixed(0)})`,
    )
  } finally {
    await lake.stop()
  }
}

function count(values: (number | string)[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

const only = benchOptions().positionals[0]
if (!only || only === 'a') await attackA()
if (!only || only === 'b') await attackB()
if (!only || only === 'c') await attackC()
