// `npm start` (and `npm run dev` with --dev: hot reload, no build): start the local twins the
// configuration needs (the Content Lake without a Sanity project id, the Supabase twin without a
// Supabase URL or with a loopback one), hand their addresses and secrets to the site as the variables a
// hosted deployment sets, build when needed, then serve the production
// build on PORT (default 3000) with our server (server/main.ts). Every process is the supervisor's
// (scripts/lib/supervisor.ts): a twin that dies is started again (a few times a minute at most, then
// everything stops with a message); Ctrl-C, SIGTERM, or any failure here stops everything.
import nextEnv from '@next/env'
import { BackendsConfigError, backendsFromEnv, type BackendsEnv } from '../lib/backends.ts'
import { ensureFirstAdmin } from './lib/ensure-first-admin.ts'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.ts'
import { certificateTrusted } from './lib/certificate-trust.ts'
import { watchSiteStylesheet, writeSiteStylesheet } from './lib/site-stylesheet.ts'
import { subsetFonts } from './lib/subset-fonts.ts'
import { isPortTaken } from '@plume/twins/free-port'
import {
  portVariable,
  siteVariables,
  startTwins,
  twinsFor,
  TwinStartError,
  type RunningTwins,
} from './lib/start-twins.ts'
import { runningDatabaseUrl, runningTwinVariables } from './lib/running-twins.ts'
import { buildInProgress, registerSiteServer, runningSiteServers } from './lib/site-servers.ts'
import { exitAfterStopping, exitOnSignalWith, runToEnd, startProcess } from './lib/supervisor.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
exitOnSignalWith(0)
process.on('uncaughtException', (error) => void exitAfterStopping(1, `[start] ${error?.stack ?? error}`))
process.on('unhandledRejection', (error) => void exitAfterStopping(1, `[start] ${(error as Error)?.stack ?? error}`))

const dev = process.argv.includes('--dev')
const printEnv = process.argv.includes('--print-env')
// The .env files, as Next reads them (.env.local and the rest): the twins, the port and the site URL
// decided here must be the ones the build and the server will see.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error })

// `npm start -- --print-env`: the variables of the local services running now (another `npm start`'s),
// as `NAME=value` lines and nothing else on stdout, for another tool or server
// (`env $(npm start --silent -- --print-env) next start -p 3111`); as `supabase status -o env` does, it
// starts, builds and checks nothing.
if (printEnv) {
  const { variables, database, missing, silent, needed } = await runningTwinVariables(process.env)
  if (silent.length)
    console.error(`[start] not answering (a process holds the port: paused, or stuck): ${silent.join('; ')}`)
  if (needed === 0)
    console.error('[start] this configuration names hosted services only: their variables are the ones you set')
  else if (missing.length === needed && silent.length === 0)
    console.error('[start] no local service runs: start them with `npm start` (or `npm run dev`), then ask again')
  else if (missing.length > silent.length)
    console.error(`[start] not running: ${missing.filter((twin) => !silent.includes(twin)).join('; ')}`)
  for (const [name, value] of Object.entries(variables)) console.log(`${name}=${value}`)
  if (database) console.log(`SUPABASE_DB_URL=${database}`)
  process.exit(needed > 0 && missing.length === needed ? 1 : 0)
}
const port = Number(process.env.PORT || 3000)
// Canonical links, the sitemap, robots.txt and the Content Lake's webhook follow the port the site
// runs on, unless a public URL is set: a public value, inlined by the build (a new port rebuilds).
process.env.NEXT_PUBLIC_SITE_URL ||= `http://localhost:${port}`
const siteUrl: string = process.env.NEXT_PUBLIC_SITE_URL

if (await isPortTaken(port)) {
  // Another port means another build (the site's URL is in it), into the folder the running site serves.
  const ours = runningSiteServers('.next').some((server) => server.port === port)
  console.error(
    ours
      ? `The site of this checkout already runs on port ${port}. To serve its build a second time beside it: npm run serve -- -p ${port + 1}`
      : `Port ${port} is already in use. Stop what is running there or choose another: PORT=${port + 1} npm start`,
  )
  process.exit(1)
}

// Before the build: pages are prerendered from the Content Lake.
const config = twinsFor(process.env, {
  contentLake: { dataDir: '.data/content-lake', siteUrl },
  // The database's Postgres port for psql, as `supabase start` opens it (SUPABASE_DB_PORT moves it).
  supabase: { dataDir: '.data/supabase', dbPort: portVariable(process.env, 'SUPABASE_DB_PORT', 54322) },
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
// The site reads its services from these variables only, as it would a hosted project's.
const handed = twins ? await siteVariables(twins) : {}
// A credential set for a service the twins stand in for (a hosted project's token or key left in
// .env.local) is not the one the site reads: said, rather than replaced silently.
const setAside = Object.keys(handed).filter(
  (name) => /TOKEN|KEY|SECRET/.test(name) && process.env[name]?.trim() && process.env[name] !== handed[name],
)
if (setAside.length > 0)
  console.log(
    `[start] not used, the local services hand their own: ${setAside.join(', ')} (a hosted service is used when its project variables are set: docs/configuration.md)`,
  )
Object.assign(process.env, handed)
// What the build would stop at, minutes in and under a stack trace (a hosted service named without its
// key…), said now, in the site's own words.
try {
  backendsFromEnv(process.env as BackendsEnv) // reads its variables among the others
} catch (error) {
  if (!(error instanceof BackendsConfigError)) throw error
  await exitAfterStopping(1, `[start] ${error.message}`)
}
if (Object.keys(handed).length > 0) {
  console.log(
    `[start] the site reads the local services through ${Object.keys(handed).length} variables: \`npm start -- --print-env\` prints them`,
  )
}
if (twins?.contentLake) {
  if (twins.contentLake.reused)
    console.log(`[start] using the local Content Lake already running on port ${twins.contentLake.port}`)
  console.log(`[start] the Studio is at ${siteUrl}/studio (content: local Content Lake, ${twins.contentLake.httpsUrl})`)
  // The Studio reaches the Content Lake over HTTPS, with the certificate it made (.data/tls/cert.pem).
  if (certificateTrusted('.data/tls/cert.pem') === false)
    console.log(
      "[start] this machine's browsers do not trust the local Content Lake's certificate yet: the Studio cannot " +
        'reach it until you run `npm run cert:trust` once (then restart the browser).',
    )
}
if (twins?.supabase) {
  if (twins.supabase.reused) console.log(`[start] using the Supabase API already running on ${twins.supabase.url}`)
  if (twins.mailViewer)
    console.log(`[start] emails sent offline (contact notifications) are in the mail viewer: ${twins.mailViewer.url}`)
  const database = await runningDatabaseUrl(twins.supabase.port)
  if (database) console.log(`[start] the database, for psql: ${database}`)
  await ensureFirstAdmin({
    url: handed.NEXT_PUBLIC_SUPABASE_URL,
    serviceRoleKey: handed.SUPABASE_SERVICE_ROLE_KEY,
    inboxUrl: `${siteUrl}/admin-panel-2024`,
  }).catch((error: Error) => {
    console.error(`[start] could not check for a first admin: ${error.message}`)
  })
}

// Another `npm start` of this checkout building now: its folder is half written.
const building = dev ? null : buildInProgress('.next')
if (building)
  await exitAfterStopping(
    1,
    `[start] a build of this checkout (process ${building.pid}) is writing .next: start again once it ends.`,
  )

if (dev) {
  const typegen = await runToEnd('npm', ['run', 'typegen'])
  if (typegen.code !== 0) await exitAfterStopping(typegen.code)
  // The fonts next dev serves, as the build cuts them (lib/fonts.ts).
  await subsetFonts()
  // The whole stylesheet the pages link after their first screen, written again as sources change.
  await writeSiteStylesheet()
  watchSiteStylesheet()
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
if (!dev) registerSiteServer({ port, distDir: '.next' })
console.log(`[start] the site is at ${siteUrl}`)
