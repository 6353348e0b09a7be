// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local twins the
// configuration needs (lib/backends.ts: the Content Lake without a hosted Sanity project, the Supabase
// twin when the app points at a loopback Supabase URL), build when needed, then serve the production
// build on PORT (default 3000). Ctrl-C stops everything; a twin that keeps dying stops everything.
import { spawn, spawnSync } from 'node:child_process'
import { ensureFirstAdmin } from '../lib/admin/ensure-first-admin.ts'
import { backends as configured, serviceRoleKey } from '../lib/backends.ts'
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs'
import { BackendStartError, isPortTaken, localTwinsFor, startBackends } from './lib/backends.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

const dev = process.argv.includes('--dev')
const port = Number(process.env.PORT || 3000)
const siteUrl = `http://localhost:${port}`
let twins
let next

async function stopAll(code = 0) {
  if (next && next.exitCode === null) next.kill('SIGTERM')
  await twins?.stop()
  process.exit(code)
}
process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))

if (await isPortTaken(port)) {
  console.error(`Port ${port} is already in use. Stop what is running there or choose another: PORT=3001 npm start`)
  process.exit(1)
}

// Before the build: pages are prerendered from the Content Lake.
const config = localTwinsFor(process.env, { contentLake: { dataDir: '.data/content-lake', siteUrl }, supabase: { dataDir: '.data/supabase' } })
try {
  twins = await startBackends({ ...config, reuseRunning: true, onGiveUp: (message) => {
    console.error(`[start] ${message} Everything was stopped.`)
    stopAll(1)
  } })
} catch (error) {
  console.error(`[start] ${error instanceof BackendStartError ? error.message : error}`)
  process.exit(1)
}
if (twins.contentLake) {
  if (twins.contentLake.reused) console.log(`[start] using the local Content Lake already running on port ${twins.contentLake.port}`)
  console.log(`[start] the Studio is at ${siteUrl}/studio (content: local Content Lake, ${twins.contentLake.httpsUrl})`)
}
if (twins.supabase) {
  if (twins.supabase.reused) console.log(`[start] using the Supabase API already running on ${twins.supabase.url}`)
  await ensureFirstAdmin({ url: configured.supabase.url, serviceRoleKey: serviceRoleKey(), inboxUrl: `${siteUrl}/admin-panel-2024` }).catch((error) => {
    console.error(`[start] could not check for a first admin: ${error.message}`)
  })
}

if (dev) {
  const typegen = spawnSync('npm', ['run', 'typegen'], { stdio: 'inherit' })
  if (typegen.status !== 0) await stopAll(typegen.status ?? 1)
} else if (!buildIsCurrent('.next')) {
  console.log('[start] building the site (first run or sources changed)…')
  const startedAt = Date.now()
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) await stopAll(build.status ?? 1)
  writeBuildStamp('.next', startedAt)
}

// Production: the build behind serve-site.mjs, which answers 400 to the request targets Next.js's
// router would answer with a 500 (`*`, `/%ff`) and completes each page's Content-Security-Policy with
// its script hashes; development: Next.js's own dev server (with the relaxed dev policy).
next = dev
  ? spawn('next', ['dev', '-p', String(port)], { stdio: 'inherit', shell: false })
  : spawn(process.execPath, ['scripts/serve-site.mjs', '-p', String(port)], { stdio: 'inherit', shell: false })
next.on('exit', (code) => stopAll(code ?? 0))
console.log(`[start] the site is at ${siteUrl}`)
