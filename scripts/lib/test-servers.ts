import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { contactSettingsSql } from './settings-sql.ts'
import {
  freeMailViewerPorts,
  SEED_DIR,
  siteVariables,
  SUPABASE_DIR,
  startTwins,
  twinAddressVariables,
  type RunningTwins,
} from './start-twins.ts'
import { waitForHttp } from '@plume/twins/free-port'
import { keepRunning, type Kept } from './supervisor.ts'

/*
 * The servers the browser tests run against (the test command, Playwright's webServer): a fresh Content
 * Lake, a throwaway Supabase twin and the site as `npm start` serves it, all kept running by the
 * supervisor (the Studio tests kill -9 the Content Lake and the site to check a restart).
 */

/** Where the restart test finds the PIDs of the servers it kills -9 (tests/e2e/restart.spec.ts). */
export const PID_DIR = 'test-results/pids'

export type TestPorts = { lakePort: number; supabasePort: number; sitePort: number }

/**
 * The variables the test build is made with and the servers run with, for the given free ports: the
 * twins' addresses, as they hand them over (the Content Lake's secrets join once it runs:
 * startTestContentLake's `variables`).
 */
export function testServersEnv({ lakePort, supabasePort, sitePort }: TestPorts): Record<string, string> {
  return {
    NEXT_DIST_DIR: '.next-test',
    NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${sitePort}`,
    ...twinAddressVariables({ contentLakePort: lakePort, supabaseUrl: `http://127.0.0.1:${supabasePort}` }),
  }
}

/**
 * The Content Lake the build reads and the Studio tests edit: seeded into a fresh folder (a restart
 * keeps it), its webhook pointed at the test site, whose origin CORS allows.
 */
export async function startTestContentLake({
  lakePort,
  siteUrl,
  onGiveUp,
}: {
  lakePort: number
  siteUrl: string
  onGiveUp: (message: string) => void
}): Promise<RunningTwins & { token: string; variables: Record<string, string> }> {
  rmSync('test-results/content-lake', { recursive: true, force: true })
  rmSync('test-results/content-lake.log', { force: true })
  const twins = await startTwins({
    contentLake: {
      port: lakePort,
      seedDir: SEED_DIR,
      dataDir: 'test-results/content-lake',
      siteUrl,
      logFile: 'test-results/content-lake.log',
    },
    pidDir: PID_DIR,
    onGiveUp,
  })
  console.log('  (local Content Lake log: test-results/content-lake.log)')
  const { token } = (await (await fetch(`${twins.contentLake!.url}/v1/auth/local-token`)).json()) as { token: string }
  return { ...twins, token, variables: await siteVariables({ contentLake: twins.contentLake }) }
}

/**
 * The Supabase twin, throwaway, with the mail viewer its function sends to (on the ports given, else
 * free ones: the browser tests read it at `mailViewer.url`, their MAIL_VIEWER_URL); the contact-form
 * tests all come from 127.0.0.1: the per-address limit is raised (tested on its own).
 */
export async function startTestSupabase({
  supabasePort,
  mailViewerPorts,
  onGiveUp,
}: {
  supabasePort: number
  mailViewerPorts?: { port: number; smtpPort: number }
  onGiveUp: (message: string) => void
}): Promise<RunningTwins & { mailViewer: NonNullable<RunningTwins['mailViewer']> }> {
  rmSync('test-results/local-supabase.log', { force: true })
  rmSync('test-results/mail-viewer.log', { force: true })
  const twins = await startTwins({
    supabase: {
      port: supabasePort,
      supabaseDir: SUPABASE_DIR,
      startupSql: contactSettingsSql({ contactRateLimit: 100_000 }),
      logFile: 'test-results/local-supabase.log',
    },
    mailViewer: { ...(mailViewerPorts ?? (await freeMailViewerPorts())), logFile: 'test-results/mail-viewer.log' },
    pidDir: PID_DIR,
    onGiveUp,
  })
  console.log('  (local Supabase server log: test-results/local-supabase.log)')
  return { ...twins, mailViewer: twins.mailViewer! }
}

/** The site as `npm start` serves it (server/main.ts), kept running: the restart test kills it. */
export async function startTestSite({
  sitePort,
  env,
  onGiveUp,
}: {
  sitePort: number
  env: Record<string, string>
  onGiveUp: (message: string) => void
}): Promise<Kept> {
  const server = join(import.meta.dirname, '..', '..', 'server', 'main.ts')
  const site = keepRunning('site', server, ['-p', String(sitePort), '-H', '127.0.0.1'], {
    env,
    pidDir: PID_DIR,
    onGiveUp,
  })
  await waitForHttp(`http://127.0.0.1:${sitePort}`, { timeoutMs: 300_000 })
  return site
}
