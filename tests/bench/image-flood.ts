// `npm run bench:image-flood`: the starvation attack on the local Content Lake's image CDN. A
// lake started as `npm run dev` starts it (its own process with the registry's options and environment,
// twins.ts: a data folder, the project's seed) gets FLOOD_CONNECTIONS (40) anonymous connections
// asking, for FLOOD_SECONDS (45 s), for the seed's founder.svg as an 8192×8192 PNG
// (`fm=png&w=8192&h=8192&fit=scale&dpr=3`, a distinct size each time so that none is a cache hit).
// Meanwhile a visitor asks every 2 s for a small size of an uploaded photo that nobody asked for yet
// (w=400, 401…, as the site's srcset asks). Printed: the flood's answers, the visitor's waits, the
// lake's resident memory (VmRSS, Linux) before, at its highest and AFTER_SECONDS (60 s) after the flood
// stopped, and the CPU time it spent in those 60 s (work left behind by clients that had gone).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@plume/twins/free-port'
import { CONTENT_LAKE } from '@plume/twins/twins'
import { benchLog, benchOptions, percentile, waitForServer } from './bench-kit.ts'
import { startNode, stopProcess } from '../../scripts/lib/supervisor.ts'
import { uploadPhoto } from './upload-photo.ts'

const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 40)
const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 45)
const AFTER_SECONDS = Number(process.env.AFTER_SECONDS ?? 60)
/** The flood's output format (FLOOD_FORMAT): png as in the attack; avif is the dearest encoder. */
const FORMAT = process.env.FLOOD_FORMAT ?? 'png'
/** A visitor's wait is cut here: what the site's browser would long have given up on. */
const VISITOR_LIMIT_MS = 90_000

const dataDir = mkdtempSync(join(tmpdir(), 'bench-image-flood-'))
const port = await freePort()
const logFile = benchLog('image-flood')
// Its certificate in the throwaway folder too (the server's default is .data/tls of the working directory).
const child = startNode(
  CONTENT_LAKE.script,
  [
    ...CONTENT_LAKE.args({ port, seedDir: benchOptions().seedDir, dataDir, webhook: false }),
    '--tls-dir',
    join(dataDir, 'tls'),
  ],
  { env: CONTENT_LAKE.env, logFile },
)
const pid = child.pid!
const origin = `http://127.0.0.1:${port}`
const mb = (value: number) => `${value.toFixed(0)} MB`

/** The lake's resident memory, in MB. */
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
/** CPU seconds (user + system) the lake's process has used. */
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime: fields 14 and 15 of proc(5)'s stat, here 11 and 12 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100
}

try {
  await waitForServer(`${origin}/v1/ping`, logFile)
  const token = readFileSync(join(dataDir, 'editor-token'), 'utf8').trim()
  const query = async (groq: string) => {
    const response = await fetch(`${origin}/v2025-02-19/data/query/production?query=${encodeURIComponent(groq)}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    return ((await response.json()) as { result: unknown }).result
  }
  const founder = (await query('*[_type == "sanity.imageAsset" && originalFilename == "founder.svg"][0].url')) as
    string | null
  if (!founder) throw new Error('the seed has no founder.svg')
  const document = await uploadPhoto(origin, token, { width: 3000, height: 2000 })

  // One request alone, before the flood: what a single one costs.
  const single = performance.now()
  const alone = await fetch(`${founder}?fm=${FORMAT}&w=8192&h=8192&fit=scale&dpr=3`)
  const aloneBytes = (await alone.arrayBuffer()).byteLength
  console.log(
    `[bench] one 8192² ${FORMAT} alone: ${alone.status} in ${((performance.now() - single) / 1000).toFixed(1)} s (${(aloneBytes / 1e6).toFixed(1)} MB)`,
  )
  await new Promise((resolve) => setTimeout(resolve, 5000))

  const before = rss()
  let highest = before
  const sampler = setInterval(() => (highest = Math.max(highest, rss())), 250)
  const stop = new AbortController()
  const statuses = new Map<string, number>()
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1)
  let next = 0
  const flooder = async () => {
    while (!stop.signal.aborted) {
      // A distinct size each time, so that none is a cache hit; w = h, so all are made at the cap, 8192².
      const side = 8192 + (next++ % 90_000)
      try {
        const response = await fetch(`${founder}?fm=${FORMAT}&w=${side}&h=${side}&fit=scale&dpr=3`, {
          signal: stop.signal,
        })
        await response.arrayBuffer()
        count(String(response.status))
      } catch {
        if (!stop.signal.aborted) count('connection error')
      }
    }
  }
  const waits: number[] = []
  const failures: string[] = []
  const visitor = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5000))
    for (let width = 400; !stop.signal.aborted; width++) {
      const started = performance.now()
      try {
        const response = await fetch(`${document.url}?w=${width}&fit=max&auto=format`, {
          headers: { Accept: 'image/webp,*/*' },
          signal: AbortSignal.timeout(VISITOR_LIMIT_MS),
        })
        await response.arrayBuffer()
        if (!response.ok) failures.push(`w=${width}: ${response.status}`)
      } catch (error) {
        const cause = (error as Error).cause
        failures.push(`w=${width}: ${cause instanceof Error ? cause.message : (error as Error).name}`)
      }
      waits.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
  const floodStarted = performance.now()
  const running = [...Array.from({ length: CONNECTIONS }, flooder), visitor()]
  await new Promise((resolve) => setTimeout(resolve, FLOOD_SECONDS * 1000))
  stop.abort()
  await Promise.all(running)
  const floodSeconds = (performance.now() - floodStarted) / 1000
  const cpuAtStop = cpuSeconds()
  const atStop = rss()
  await new Promise((resolve) => setTimeout(resolve, AFTER_SECONDS * 1000))
  clearInterval(sampler)
  const after = rss()
  const cpuAfter = cpuSeconds() - cpuAtStop
  // And it still answers a new small image once the flood is over.
  const lastStarted = performance.now()
  const last = await fetch(`${document.url}?w=333&fit=max&auto=format`, {
    headers: { Accept: 'image/webp' },
    signal: AbortSignal.timeout(VISITOR_LIMIT_MS),
  })
    .then(async (response) => (await response.arrayBuffer(), String(response.status)))
    .catch((error: Error) => (error.cause instanceof Error ? error.cause.message : error.name))
  const lastMs = performance.now() - lastStarted

  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  console.log(
    `[bench] flood: ${CONNECTIONS} connections for ${floodSeconds.toFixed(0)} s: ${JSON.stringify(Object.fromEntries(statuses))}`,
  )
  console.log(
    `[bench] visitor's new small image during the flood (${waits.length} asks): p50 ${seconds(percentile(waits, 50))}, max ${seconds(Math.max(...waits))}${failures.length ? `; failed: ${failures.join(', ')}` : ''}`,
  )
  console.log(`[bench] after the flood: a new small image in ${seconds(lastMs)} (${last})`)
  console.log(
    `[bench] lake RSS: before ${mb(before)}, highest ${mb(highest)}, when the flood stopped ${mb(atStop)}, ${AFTER_SECONDS} s after ${mb(after)} (${after - before >= 0 ? '+' : ''}${mb(after - before)})`,
  )
  console.log(`[bench] lake CPU in the ${AFTER_SECONDS} s after the flood: ${cpuAfter.toFixed(1)} s`)
} finally {
  await stopProcess(child)
  rmSync(dataDir, { recursive: true, force: true })
}
