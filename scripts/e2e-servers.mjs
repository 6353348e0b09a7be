// Playwright's webServer (`npx playwright test` on its own, see playwright.config.ts): the test build in
// .next-test (built only when stale), the local twins and the site on the free loopback ports the
// config chose, all supervised as `npm test -- e2e` runs them; it runs until Playwright stops it.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { buildInputs, buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs'
import { e2eEnv, startE2eContentLake, startE2eSite, startE2eSupabase } from './lib/backends.mjs'

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
if (!buildIsCurrent(env.NEXT_DIST_DIR)) {
  console.log('[e2e] building the site for the browser tests (.next-test is missing or stale)…')
  const inputs = buildInputs()
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', env: process.env })
  if (build.status !== 0) process.exit(build.status ?? 1)
  writeBuildStamp(env.NEXT_DIST_DIR, inputs)
}
servers.push(await startE2eSupabase({ supabasePort: ports.supabasePort, onGiveUp: giveUp }))
servers.push(await startE2eSite({ sitePort: ports.sitePort, env, onGiveUp: giveUp }))
console.log(`[e2e] the site is at ${env.NEXT_PUBLIC_SITE_URL}`)
const stop = () => Promise.all(servers.map((server) => server.stop())).then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
