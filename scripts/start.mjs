// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local Content Lake when
// no hosted Sanity project is configured, build when needed, start the local Supabase-compatible server
// when the app points at it, then serve the production build on PORT (default 3000). Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs'
import { contentLakePortOrExit, localContentLakePort, startContentLake, usesLocalContentLake } from './lib/content-lake.mjs'
import { isPortTaken, waitForHttp } from './lib/free-port.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321'
const dev = process.argv.includes('--dev')
const port = Number(process.env.PORT || 3000)
const supabaseUrl = process.env.NEXT_PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_URL
const children = []

function stopAll(code = 0) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  process.exit(code)
}
process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))

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
      const lake = await startContentLake(['--port', String(lakePort), '--site-url', `http://localhost:${port}`])
      children.push(lake)
      lake.on('exit', (code) => {
        if (code) {
          console.error(`[start] the local Content Lake stopped (exit ${code}).`)
          stopAll(code)
        }
      })
    } catch (error) {
      console.error(`[start] ${error.message}`)
      stopAll(1)
    }
  }
  console.log(`[start] the Studio is at http://localhost:${port}/studio (content: local Content Lake, https://localhost:${lakePort})`)
}

if (dev) {
  const typegen = spawnSync('npm', ['run', 'typegen'], { stdio: 'inherit' })
  if (typegen.status !== 0) process.exit(typegen.status ?? 1)
} else if (!buildIsCurrent('.next')) {
  console.log('[start] building the site (first run or sources changed)…')
  const inputs = buildInputs()
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
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
      process.exit(1)
    }
    console.log('[start] using the Supabase API already running on 127.0.0.1:54321')
  } else {
    const args = ['supabase/local/server.ts', '--port', '54321', '--ensure-admin', '--site-url', `http://localhost:${port}`]
    const supabase = spawn(process.execPath, args, { stdio: 'inherit' })
    children.push(supabase)
    supabase.on('exit', (code) => {
      if (code) {
        console.error(`[start] the local Supabase server stopped (exit ${code}).`)
        stopAll(code)
      }
    })
    await waitForHttp(`${LOCAL_SUPABASE_URL}/auth/v1/health`, { timeoutMs: 60_000 })
  }
}

// Production: the build behind serve-site.mjs, which answers 400 to the request targets Next.js's
// router would answer with a 500 (`*`, `/%ff`) and completes each page's Content-Security-Policy with
// its script hashes; development: Next.js's own dev server (with the relaxed dev policy).
const next = dev
  ? spawn('next', ['dev', '-p', String(port)], { stdio: 'inherit', shell: false })
  : spawn(process.execPath, ['scripts/serve-site.mjs', '-p', String(port)], { stdio: 'inherit', shell: false })
children.push(next)
next.on('exit', (code) => stopAll(code ?? 0))
console.log(`[start] the site is at http://localhost:${port}`)
