// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local twins the
// configuration needs (lib/backends.ts: the Content Lake without a hosted Sanity project, the Supabase
// twin when the app points at a loopback Supabase URL), build when needed, then serve the production
// build on PORT (default 3000). A twin that dies is restarted (a few times a minute at most, then
// everything stops with a message); Ctrl-C, SIGTERM, or any failure here stops everything this started.
import { spawn } from 'node:child_process'
import { ensureFirstAdmin } from '../lib/admin/ensure-first-admin.ts'
import { backends as configured, serviceRoleKey } from '../lib/backends.ts'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs'
import { BackendStartError, isPortTaken, localTwinsFor, startBackends } from './lib/backends.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

const dev = process.argv.includes('--dev')
const port = Number(process.env.PORT || 3000)
const siteUrl = `http://localhost:${port}`
const children = new Set()
let twins
let stopping = false

/** Stops the site, the build and the twins (waiting up to 5 s for them), then exits with `code`. */
async function stopAll(code = 0, message) {
  if (message) console.error(message)
  if (stopping) return
  stopping = true
  const exited = [...[...children].map(stopChild), twins?.stop()]
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
  process.exit(code)
}
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}
/** Spawns a child that stopAll will stop. */
function track(child) {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}
/** Runs a command to its end (asynchronously, so Ctrl-C is handled meanwhile). */
function runToEnd(command, args) {
  return new Promise((resolve) => track(spawn(command, args, { stdio: 'inherit' })).once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}
process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))
process.on('SIGHUP', () => stopAll(0))
process.on('uncaughtException', (error) => stopAll(1, `[start] ${error?.stack ?? error}`))
process.on('unhandledRejection', (error) => stopAll(1, `[start] ${error?.stack ?? error}`))
// Last resort if this process exits some other way (the twins also stop when their parent goes).
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM')
})

if (await isPortTaken(port)) {
  console.error(`Port ${port} is already in use. Stop what is running there or choose another: PORT=3001 npm start`)
  process.exit(1)
}

// Before the build: pages are prerendered from the Content Lake.
const config = localTwinsFor(process.env, { contentLake: { dataDir: '.data/content-lake', siteUrl }, supabase: { dataDir: '.data/supabase' } })
try {
  twins = await startBackends({ ...config, reuseRunning: true, onGiveUp: (message) => stopAll(1, `[start] ${message} Everything was stopped.`) })
} catch (error) {
  await stopAll(1, `[start] ${error instanceof BackendStartError ? error.message : error}`)
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
  const typegen = await runToEnd('npm', ['run', 'typegen'])
  if (typegen !== 0) await stopAll(typegen)
} else if (!buildIsCurrent('.next')) {
  console.log('[start] building the site (first run or sources changed)…')
  const inputs = buildInputs()
  const build = await runToEnd('npm', ['run', 'build'])
  if (build !== 0) await stopAll(build, '[start] the build failed (above); everything started was stopped.')
  writeBuildStamp('.next', inputs)
}

// Production: the build behind serve-site.mjs (request-target checks, timeouts, the policy completed
// with each page's script hashes, compression once per version); development: Next.js's own dev server.
const next = track(
  dev
    ? spawn('next', ['dev', '-p', String(port)], { stdio: 'inherit', shell: false })
    : spawn(process.execPath, ['scripts/serve-site.mjs', '-p', String(port)], { stdio: 'inherit', shell: false }),
)
next.on('exit', (code) => stopAll(code ?? 0))
console.log(`[start] the site is at ${siteUrl}`)
