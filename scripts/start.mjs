// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local Content Lake when
// no hosted Sanity project is configured, build when needed, start the local Supabase-compatible server
// when the app points at it, then serve the production build on PORT (default 3000). The local servers
// are restarted if they die (a few times a minute at most). Ctrl-C, SIGTERM, or any failure here stops
// everything this started.
import { spawn } from 'node:child_process'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs'
import { contentLakePortOrExit, localContentLakePort, startContentLake, usesLocalContentLake } from './lib/content-lake.mjs'
import { isPortTaken, waitForHttp } from './lib/free-port.mjs'
import { supervise } from './lib/supervise.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321'
const dev = process.argv.includes('--dev')
const port = Number(process.env.PORT || 3000)
const supabaseUrl = process.env.NEXT_PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_URL
/** Everything started here: supervised servers ({stop}) and plain child processes. */
const supervised = []
const children = new Set()
let stopping = false

/** Stops every server and child (waiting up to 5 s for them), then exits with `code`. */
async function stopAll(code = 0, message) {
  if (message) console.error(message)
  if (stopping) return
  stopping = true
  const exited = [...supervised.map((server) => server.stop()), ...[...children].map(stopChild)]
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
/** Runs an npm script to its end (asynchronously, so Ctrl-C is handled meanwhile). */
function runToEnd(command, args) {
  return new Promise((resolve) => track(spawn(command, args, { stdio: 'inherit' })).once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}
process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))
process.on('SIGHUP', () => stopAll(0))
process.on('uncaughtException', (error) => stopAll(1, `[start] ${error?.stack ?? error}`))
process.on('unhandledRejection', (error) => stopAll(1, `[start] ${error?.stack ?? error}`))
// Last resort if this process exits some other way: no server is left running without it.
process.on('exit', () => {
  for (const server of supervised) server.child.kill('SIGTERM')
  for (const child of children) child.kill('SIGTERM')
})

if (await isPortTaken(port)) {
  console.error(`Port ${port} is already in use. Stop what is running there or choose another: PORT=3001 npm start`)
  process.exit(1)
}

if (usesLocalContentLake()) {
  // Before the build: pages are prerendered from it.
  const lakePort = localContentLakePort()
  if ((await contentLakePortOrExit(lakePort)) === 'ours') {
    console.log(`[start] using the local Content Lake already running on port ${lakePort}`)
  } else {
    try {
      const start = () => startContentLake(['--port', String(lakePort), '--site-url', `http://localhost:${port}`])
      supervised.push(await supervise('the local Content Lake', start, { onGiveUp: (message) => stopAll(1, message) }))
    } catch (error) {
      await stopAll(1, `[start] ${error.message}`)
    }
  }
  console.log(`[start] the Studio is at http://localhost:${port}/studio (content: local Content Lake, https://localhost:${lakePort})`)
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

if (supabaseUrl.replace(/\/+$/, '') === LOCAL_SUPABASE_URL) {
  if (await isPortTaken(54321)) {
    // Something already serves 54321: fine if it speaks Supabase (`supabase start`, another copy of
    // our local server); otherwise say what to do.
    const health = await fetch(`${LOCAL_SUPABASE_URL}/auth/v1/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null)
    if (!health?.ok) {
      console.error(
        'Port 54321 (the local Supabase API) is already in use by something that is not a Supabase API. Stop it, ' +
          'or point NEXT_PUBLIC_SUPABASE_URL at a hosted project.',
      )
      await stopAll(1)
    }
    console.log('[start] using the Supabase API already running on 127.0.0.1:54321')
  } else {
    const args = ['supabase/local/server.ts', '--port', '54321', '--ensure-admin', '--site-url', `http://localhost:${port}`]
    const start = async () => {
      const supabase = spawn(process.execPath, args, { stdio: 'inherit' })
      const died = new Promise((_, reject) => supabase.once('exit', (code) => reject(new Error(`the local Supabase server stopped (exit ${code})`))))
      await Promise.race([waitForHttp(`${LOCAL_SUPABASE_URL}/auth/v1/health`, { timeoutMs: 60_000 }), died]).catch((error) => {
        supabase.kill('SIGTERM')
        throw error
      })
      died.catch(() => {}) // its later death is the supervisor's to report
      return supabase
    }
    try {
      supervised.push(await supervise('the local Supabase server', start, { onGiveUp: (message) => stopAll(1, message) }))
    } catch (error) {
      await stopAll(1, `[start] ${error.message}`)
    }
  }
}

// Production: the build behind serve-site.mjs, which answers 400 to the request targets Next.js's
// router would answer with a 500 (`*`, `/%ff`) and completes each page's Content-Security-Policy with
// its script hashes; development: Next.js's own dev server (with the relaxed dev policy).
const next = track(
  dev
    ? spawn('next', ['dev', '-p', String(port)], { stdio: 'inherit', shell: false })
    : spawn(process.execPath, ['scripts/serve-site.mjs', '-p', String(port)], { stdio: 'inherit', shell: false }),
)
next.on('exit', (code) => stopAll(code ?? 0, code ? `[start] the site server stopped (exit ${code}); everything started was stopped.` : undefined))
console.log(`[start] the site is at http://localhost:${port}`)
