// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local twins the
// configuration needs (lib/backends.ts: the Content Lake without a hosted Sanity project, the Supabase
// twin when the app points at a loopback Supabase URL), build when needed, then serve the production
// build on PORT (default 3000) with our server (server/main.ts). Every process is the supervisor's
// (scripts/lib/supervisor.ts): a twin that dies is started again (a few times a minute at most, then
// everything stops with a message); Ctrl-C, SIGTERM, or any failure here stops everything.
import nextEnv from '@next/env'
import { ensureFirstAdmin } from '../lib/admin/ensure-first-admin.ts'
import { backends as configured, serviceRoleKey } from '../lib/backends.ts'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.ts'
import { isPortTaken, startTwins, twinsFor, TwinStartError, type RunningTwins } from './lib/start-twins.ts'
import { exitAfterStopping, exitOnSignalWith, runToEnd, startProcess } from './lib/supervisor.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
exitOnSignalWith(0)
process.on('uncaughtException', (error) => void exitAfterStopping(1, `[start] ${error?.stack ?? error}`))
process.on('unhandledRejection', (error) => void exitAfterStopping(1, `[start] ${(error as Error)?.stack ?? error}`))

const dev = process.argv.includes('--dev')
// The .env files, as Next reads them (.env.local and the rest): the twins, the port and the site URL
// decided here must be the ones the build and the server will see.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error })
const port = Number(process.env.PORT || 3000)
// Canonical links, the sitemap, robots.txt and the Content Lake's webhook follow the port the site
// runs on, unless a public URL is set: a public value, inlined by the build (a new port rebuilds).
process.env.NEXT_PUBLIC_SITE_URL ||= `http://localhost:${port}`
const siteUrl: string = process.env.NEXT_PUBLIC_SITE_URL

if (await isPortTaken(port)) {
  console.error(`Port ${port} is already in use. Stop what is running there or choose another: PORT=3001 npm start`)
  process.exit(1)
}

// Before the build: pages are prerendered from the Content Lake.
const config = twinsFor(process.env, {
  contentLake: { dataDir: '.data/content-lake', siteUrl },
  supabase: { dataDir: '.data/supabase' },
  mailViewer: { dataDir: '.data/mail-viewer' },
})
let twins: RunningTwins | undefined
try {
  twins = await startTwins({
    ...config,
    reuseRunning: 'same-data',
    onGiveUp: (message) => void exitAfterStopping(1, `[start] ${message} Everything was stopped.`),
  })
} catch (error) {
  await exitAfterStopping(1, `[start] ${error instanceof TwinStartError ? error.message : error}`)
}
if (twins?.contentLake) {
  if (twins.contentLake.reused)
    console.log(`[start] using the local Content Lake already running on port ${twins.contentLake.port}`)
  console.log(`[start] the Studio is at ${siteUrl}/studio (content: local Content Lake, ${twins.contentLake.httpsUrl})`)
}
// The local Supabase twin takes the CLI's well-known service key (lib/backends.ts).
const serviceKey = serviceRoleKey()
if (twins?.supabase && serviceKey) {
  if (twins.supabase.reused) console.log(`[start] using the Supabase API already running on ${twins.supabase.url}`)
  if (twins.mailViewer)
    console.log(`[start] emails sent offline (contact notifications) are in the mail viewer: ${twins.mailViewer.url}`)
  await ensureFirstAdmin({
    url: configured.supabase.url,
    serviceRoleKey: serviceKey,
    inboxUrl: `${siteUrl}/admin-panel-2024`,
  }).catch((error: Error) => {
    console.error(`[start] could not check for a first admin: ${error.message}`)
  })
}

if (dev) {
  const typegen = await runToEnd('npm', ['run', 'typegen'])
  if (typegen.code !== 0) await exitAfterStopping(typegen.code)
} else if (!buildIsCurrent('.next')) {
  console.log('[start] building the site (first run, or sources or public variables changed)…')
  const inputs = buildInputs()
  const build = await runToEnd('npm', ['run', 'build'])
  if (build.code !== 0)
    await exitAfterStopping(build.code, '[start] the build failed (above); everything started was stopped.')
  writeBuildStamp('.next', inputs)
}

// Production: the build behind our server (request-target checks, timeouts, the policy completed with
// each page's script hashes, compression once per version); development: Next.js's own dev server.
const site = dev
  ? startProcess('next', ['dev', '-p', String(port)])
  : startProcess(process.execPath, ['server/main.ts', '-p', String(port)])
site.once('exit', (code) => void exitAfterStopping(code ?? 0))
console.log(`[start] the site is at ${siteUrl}`)
