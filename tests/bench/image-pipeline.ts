// `npm run bench:images`: the local Content Lake's image CDN (issue 38). A 12 MP JPEG
// (4000×3000) is uploaded to a lake in its own process with a data folder (so transforms are cached on
// disk, as in development); then the first and the cached `w=800&auto=format` (as Chrome asks: AVIF),
// the same for a WebP-only browser, and the lake's resident memory (VmRSS, Linux) while BENCH_WIDTHS
// (1,000) distinct widths are asked for, BENCH_CONCURRENCY (16) at a time, and the cache's size on disk
// after.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@plume/twins/free-port'
import { CONTENT_LAKE } from '@plume/twins/twins'
import { benchLog, waitForServer } from './bench-kit.ts'
import { startNode, stopProcess } from '../../scripts/lib/supervisor.ts'
import { uploadPhoto } from './upload-photo.ts'

const WIDTHS = Number(process.env.BENCH_WIDTHS ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const AVIF_ACCEPT = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8'
const WEBP_ACCEPT = 'image/webp,*/*'

const dataDir = mkdtempSync(join(tmpdir(), 'bench-images-'))
const port = await freePort()
const logFile = benchLog('image-pipeline')
const child = startNode(
  CONTENT_LAKE.script,
  ['--no-webhook', '--port', String(port), '--data-dir', dataDir, '--tls-dir', join(dataDir, 'tls')],
  { logFile },
)
const origin = `http://127.0.0.1:${port}`
const status = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
const mb = (value: number) => `${value.toFixed(0)} MB`

try {
  await waitForServer(`${origin}/v1/ping`, logFile)
  const token = readFileSync(join(dataDir, 'editor-token'), 'utf8').trim()
  const document = await uploadPhoto(origin, token, { width: 4000, height: 3000 })
  console.log(`[bench] uploaded a 4000×3000 JPEG of ${(document.bytes / 1e6).toFixed(1)} MB`)

  const timed = async (query: string, accept: string) => {
    const started = performance.now()
    const response = await fetch(`${document.url}?${query}`, { headers: { Accept: accept } })
    const bytes = (await response.arrayBuffer()).byteLength
    if (!response.ok) throw new Error(`${query}: ${response.status}`)
    return { ms: performance.now() - started, bytes, type: response.headers.get('content-type') }
  }
  for (const [name, accept] of [
    ['AVIF', AVIF_ACCEPT],
    ['WebP', WEBP_ACCEPT],
  ]) {
    const first = await timed('w=800&auto=format', accept)
    const cached = await timed('w=800&auto=format', accept)
    console.log(
      `[bench] w=800&auto=format, ${name} accepted: first ${first.ms.toFixed(0)} ms, cached ${cached.ms.toFixed(1)} ms (${first.type}, ${(first.bytes / 1024).toFixed(0)} KB)`,
    )
  }

  const before = status('VmRSS')
  let highest = before
  let next = 0
  const statuses = new Map<number, number>()
  const client = async () => {
    while (next < WIDTHS) {
      const width = 100 + next++
      const response = await fetch(`${document.url}?w=${width}&auto=format`, { headers: { Accept: WEBP_ACCEPT } })
      await response.arrayBuffer()
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      highest = Math.max(highest, status('VmRSS'))
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, client))
  const seconds = (performance.now() - started) / 1000
  const cacheFolder = join(dataDir, 'production', 'image-cache')
  const cacheBytes = readdirSync(cacheFolder).reduce((total, name) => total + statSync(join(cacheFolder, name)).size, 0)
  console.log(
    `[bench] ${WIDTHS} distinct widths (${CONCURRENCY} at a time) in ${seconds.toFixed(1)} s: ${JSON.stringify(Object.fromEntries(statuses))}`,
  )
  console.log(
    `[bench] lake RSS: before ${mb(before)}, highest ${mb(highest)}, after ${mb(status('VmRSS'))}; peak (VmHWM) ${mb(status('VmHWM'))}`,
  )
  console.log(`[bench] transform cache on disk: ${(cacheBytes / 1e6).toFixed(1)} MB (cap 256 MB)`)
} finally {
  await stopProcess(child)
  rmSync(dataDir, { recursive: true, force: true })
}
