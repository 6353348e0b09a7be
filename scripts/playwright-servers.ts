// Playwright's webServer (`npx playwright test` on its own, see playwright.config.ts): the test build in
// .next-test (built only when stale, otherwise put back as it was built: scripts/lib/test-build.ts),
// the local twins and the site on the free loopback ports the config chose, all kept by the supervisor
// as `npm test -- e2e` runs them; it runs until Playwright stops it (the supervisor stops them all).
import { mkdirSync } from 'node:fs'
import { exitAfterStopping, runToEnd } from './lib/supervisor.ts'
import { prepareTestBuild } from './lib/test-build.ts'
import { startTestContentLake, startTestSite, startTestSupabase, testServersEnv } from './lib/test-servers.ts'

const ports = {
  lakePort: Number(process.env.E2E_LAKE_PORT),
  supabasePort: Number(process.env.E2E_SUPABASE_PORT),
  sitePort: Number(process.env.E2E_SITE_PORT),
}
// The mail viewer's, which the config also passes to the tests as MAIL_VIEWER_URL.
const mailViewerPorts = { port: Number(process.env.E2E_MAIL_PORT), smtpPort: Number(process.env.E2E_MAIL_SMTP_PORT) }
if (!ports.lakePort || !ports.supabasePort || !ports.sitePort || !mailViewerPorts.port || !mailViewerPorts.smtpPort) {
  console.error(
    'scripts/playwright-servers.ts is started by playwright.config.ts, which passes E2E_LAKE_PORT, E2E_SUPABASE_PORT, E2E_SITE_PORT, E2E_MAIL_PORT and E2E_MAIL_SMTP_PORT.',
  )
  process.exit(2)
}
const env = testServersEnv(ports)
Object.assign(process.env, env, { NEXT_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' })
const onGiveUp = (message: string) => void exitAfterStopping(1, `✖ ${message}`)
mkdirSync('test-results', { recursive: true })
const lake = await startTestContentLake({ lakePort: ports.lakePort, siteUrl: env.NEXT_PUBLIC_SITE_URL, onGiveUp })
Object.assign(env, lake.variables)
const runBuild = async (buildEnv: NodeJS.ProcessEnv) => {
  console.log('[e2e] building the site for the browser tests (.next-test is missing or stale)…')
  return (await runToEnd('npm', ['run', '--silent', 'build'], { env: buildEnv })).code === 0
}
const ported = { supabase: ports.supabasePort, site: ports.sitePort, lake: ports.lakePort }
if (!(await prepareTestBuild(env, ported, runBuild))) await exitAfterStopping(1)
await startTestSupabase({ supabasePort: ports.supabasePort, mailViewerPorts, onGiveUp })
await startTestSite({ sitePort: ports.sitePort, env, onGiveUp })
console.log(`[e2e] the site is at ${env.NEXT_PUBLIC_SITE_URL}`)
