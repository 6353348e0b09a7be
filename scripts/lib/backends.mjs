// The scripts' one way to start what the configuration needs: the local twins through
// @plume/local-twins/start (the only script that imports the package), with this project's seed and
// Supabase folder, decided by the site's door (lib/backends.ts); and the servers the browser tests run
// against (npm test, Playwright's webServer), supervised the same way.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, isPortTaken, waitForHttp } from '@plume/local-twins/free-port'
import { BackendStartError, startBackends, supervise } from '@plume/local-twins/start'
import { backendsFromEnv } from '../../lib/backends.ts'
import { contactSettingsSql } from '../../lib/supabase/settings-sql.ts'

export { BackendStartError, freePort, isPortTaken, startBackends, supervise, waitForHttp }

const root = join(import.meta.dirname, '..', '..')
/** What the twins take from this project: the Content Lake's seed and the Supabase folder. */
export const SEED_DIR = join(root, 'studio', 'seed')
export const SUPABASE_DIR = join(root, 'supabase')

/**
 * startBackends' configuration for the twins this environment needs (none when both services are
 * hosted), `contentLake` and `supabase` adding their options (data folders, site URL…).
 */
export function localTwinsFor(env = process.env, { contentLake = {}, supabase = {} } = {}) {
  const { sanity, supabase: supabaseBackend } = backendsFromEnv(env)
  const config = {}
  if (!sanity.hosted) config.contentLake = { port: sanity.localPort, seedDir: SEED_DIR, ...contentLake }
  if (supabaseBackend.local) config.supabase = { port: supabaseBackend.localPort, supabaseDir: SUPABASE_DIR, ...supabase }
  return config
}

// ---- The browser tests' servers (scripts/test.mjs, scripts/e2e-servers.mjs) ----------------------------

/** Where the Studio tests find the PIDs of the servers they kill -9 (tests/e2e/studio.spec.ts). */
export const PID_DIR = 'test-results/pids'

/** The variables the test build is made with and the servers run with, for the given free ports. */
export function e2eEnv({ lakePort, supabasePort, sitePort }) {
  const siteUrl = `http://127.0.0.1:${sitePort}`
  return {
    NEXT_DIST_DIR: '.next-test',
    NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${supabasePort}`,
    NEXT_PUBLIC_SITE_URL: siteUrl,
    NEXT_PUBLIC_SANITY_PROJECT_ID: '',
    NEXT_PUBLIC_SANITY_LOCAL_PORT: String(lakePort),
  }
}

/**
 * The Content Lake the build reads and the Studio tests edit: seeded into a fresh folder (a restart
 * keeps it), its webhook pointed at the test site, whose origin CORS allows. Supervised (PID file).
 */
export async function startE2eContentLake({ lakePort, siteUrl, onGiveUp }) {
  rmSync('test-results/content-lake', { recursive: true, force: true })
  rmSync('test-results/content-lake.log', { force: true })
  const backends = await startBackends({
    contentLake: { port: lakePort, seedDir: SEED_DIR, dataDir: 'test-results/content-lake', siteUrl, logFile: 'test-results/content-lake.log' },
    pidDir: PID_DIR,
    onGiveUp,
  })
  console.log('  (local Content Lake log: test-results/content-lake.log)')
  const { token } = await (await fetch(`${backends.contentLake.url}/v1/auth/local-token`)).json()
  return { ...backends, token }
}

/** The Supabase twin, throwaway; the contact-form tests all come from 127.0.0.1: the per-address limit is raised (tested on its own). */
export async function startE2eSupabase({ supabasePort, onGiveUp }) {
  rmSync('test-results/local-supabase.log', { force: true })
  const backends = await startBackends({
    supabase: { port: supabasePort, supabaseDir: SUPABASE_DIR, startupSql: contactSettingsSql({ contactRateLimit: 100_000 }), env: { OUTBOX_DIR: 'test-results/outbox' }, logFile: 'test-results/local-supabase.log' },
    pidDir: PID_DIR,
    onGiveUp,
  })
  console.log('  (local Supabase server log: test-results/local-supabase.log)')
  return backends
}

/** The site as `npm start` serves it (serve-site.mjs), supervised: the Studio tests kill it to check a restart. */
export async function startE2eSite({ sitePort, env, onGiveUp }) {
  const site = supervise('site', join(root, 'scripts', 'serve-site.mjs'), ['-p', String(sitePort), '-H', '127.0.0.1'], { env, pidDir: PID_DIR, onGiveUp })
  await waitForHttp(`http://127.0.0.1:${sitePort}`, { timeoutMs: 300_000 })
  return site
}
