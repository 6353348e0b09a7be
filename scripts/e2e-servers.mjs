// Playwright's webServer (`npx playwright test` on its own, see playwright.config.ts): the test build in
// .next-test (built only when stale, otherwise put back as it was built: scripts/lib/test-build.mjs),
// the local twins and the site on the free loopback ports the config chose, all supervised as
// `npm test -- e2e` runs them; it runs until Playwright stops it.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { e2eEnv, startE2eContentLake, startE2eSite, startE2eSupabase } from './lib/backends.mjs'
import { prepareTestBuild } from './lib/test-build.mjs'

const ports = { lakePort: Number(process.env.E2E_LAKE_PORT), supabasePort: Number(process.env.E2E_SUPABASE_PORT), sitePort: Number(process.env.E2E_SITE_PORT) }
if (!ports.lakePort || !ports.supabasePort || !ports.sitePort) {
  console.error('scripts/e2e-servers.mjs is started by playwright.config.ts, which passes E2E_LAKE_PORT, E2E_SUPABASE_PORT and E2E_SITE_PORT.')
  process.exit(2)
}
const env = e2eEnv(ports)
Object.assign(process.env, env, { NEXT_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' })
const giveUp = (message) => {
  console.error(`✖ ${message}`)
  process.exit(1)
}
mkdirSync('test-results', { recursive: true })
const servers = [await startE2eContentLake({ lakePort: ports.lakePort, siteUrl: env.NEXT_PUBLIC_SITE_URL, onGiveUp: giveUp })]
const runBuild = (buildEnv) =>
  new Promise((resolve) => {
    console.log('[e2e] building the site for the browser tests (.next-test is missing or stale)…')
    spawn('npm', ['run', '--silent', 'build'], { stdio: 'inherit', env: buildEnv }).on('close', (code) => resolve(code === 0))
  })
if (!(await prepareTestBuild(env, { supabase: ports.supabasePort, site: ports.sitePort, lake: ports.lakePort }, runBuild))) process.exit(1)
servers.push(await startE2eSupabase({ supabasePort: ports.supabasePort, onGiveUp: giveUp }))
servers.push(await startE2eSite({ sitePort: ports.sitePort, env, onGiveUp: giveUp }))
console.log(`[e2e] the site is at ${env.NEXT_PUBLIC_SITE_URL}`)
const stop = () => Promise.all(servers.map((server) => server.stop())).then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
