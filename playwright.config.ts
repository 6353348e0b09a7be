import { availableParallelism } from 'node:os'
import { defineConfig, devices } from '@playwright/test'
import { e2eServers } from './scripts/lib/e2e-ports.ts'
import { CHROMIUM_ARGS, findChromium } from './scripts/lib/find-chromium.ts'

// Under `npm test -- e2e` (scripts/test.ts) the servers are already running and their URLs passed in
// (BASE_URL…). Run on its own (`npx playwright test …`), Playwright starts them itself through
// scripts/playwright-servers.ts: the twins and the site on free loopback ports, building .next-test when stale.
// Chromium is Debian's headless shell (Playwright cannot download one here: scripts/lib/find-chromium.ts).
const servers = e2eServers()
const DESKTOP = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }
const STUDIO = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, ignoreHTTPSErrors: true }

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // One worker per core: a worker's Chromium keeps about one and a half cores busy while the site and
  // the twins wait on it, so two workers fill a 2-core machine without starving it. Tests wait for
  // outcomes, never for a duration, so a busier machine stretches them without failing them.
  // (`--workers=N` overrides it.)
  workers: availableParallelism(),
  retries: 0,
  // Ceilings that catch hangs, generous enough for a busy 2-core machine: a test waits for outcomes,
  // never for a duration.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_FILE ?? 'test-results/playwright.json' }]],
  // Each run of the test command (site, Studio, each serving mode) keeps its own artifacts: Playwright
  // empties its output folder when it starts, and two runs at once would write over each other's.
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results/playwright',
  ...(servers && {
    webServer: {
      command: 'node scripts/playwright-servers.ts',
      url: servers.baseURL,
      env: servers.env,
      // A build from scratch on a busy 2-core machine.
      timeout: 15 * 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    // The Content Lake's editor token, read once the webServer is up (the Studio tests sign in with it).
    globalSetup: './tests/e2e/global-setup.ts',
  }),
  use: {
    baseURL: process.env.BASE_URL ?? servers?.baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? findChromium({ kind: 'headless-shell', install: false }),
      args: CHROMIUM_ARGS,
    },
    // No trace by default: recording one costs the browser tests a third to two fifths of their CPU
    // time, every run, for the rare failure (measured on two specs: 114 s of CPU with the default
    // trace, 80 s without its screencast, 67 s with none). A failure still leaves a screenshot and the
    // page's accessibility snapshot; rerun the spec with `--trace on` for the full trace.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      use: DESKTOP,
      testIgnore: /(mobile|studio|presentation|admin(-[\w-]+)?|faults|replicas|restart)\.spec\.ts/,
    },
    // The inbox reads no content, only the local Supabase: the test command runs it beside the site's
    // tests (one worker, serial files each seeding its own messages: it fills what they leave of the
    // machine while they wait).
    { name: 'inbox', use: DESKTOP, testMatch: /admin(-[\w-]+)?\.spec\.ts/ },
    { name: 'mobile', use: { ...devices['Pixel 7'], browserName: 'chromium' }, testMatch: /mobile\.spec\.ts/ },
    // The Studio publishes content the other projects read: it runs after them (the test command runs
    // it on its own afterwards, so a failure elsewhere does not skip it). Its three files edit different
    // documents and run on three workers, each in a Studio of its own, each file's tests in order. The local
    // Content Lake's certificate is self-signed (docs/sanity.md says how a person trusts it).
    {
      name: 'studio',
      dependencies: ['desktop', 'mobile'],
      testMatch: /(studio|presentation)\.spec\.ts/,
      timeout: 180_000,
      use: STUDIO,
    },
    // Stops the Redis the site's replicas share, then kills the Content Lake and the site, which every
    // other project reads: last, alone (files in order: faults, replicas, then restart).
    {
      name: 'restart',
      dependencies: ['studio', 'inbox'],
      testMatch: /(faults|replicas|restart)\.spec\.ts/,
      timeout: 180_000,
      use: STUDIO,
    },
  ],
})
