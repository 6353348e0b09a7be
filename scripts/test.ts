// `npm test`: every check and test of the project, as CI runs it (.ci/run).
//  1. three lanes at once, each printed in one piece when it ends (the machine is rarely busy in all
//     three at the same time: vitest waits on servers, the build on its workers):
//     - Sanity TypeGen, TypeScript, ESLint and Prettier
//     - unit + integration tests (vitest)
//     - a local Content Lake (seeded), Sanity's own document validator over it, a production build
//       read from it, a local Supabase and the site
//  2. browser tests (Playwright + Debian's Chromium) against that build, once its lane has ended (the
//     others may still be finishing): the site beside the inbox (it reads no content), then the Studio
//     beside the other ways of serving the same build (next start, the standalone folder's server.js,
//     the container's folder); last, alone, a second replica sharing the site's cache through Redis,
//     and the restart of the Content Lake and the site
// It ends with how long each stage took, the ten slowest tests, and one line "N passed, M failed"
// (non-zero exit code when anything failed).
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { findChromium } from './lib/find-chromium.ts'
import { findRedisServer, startRedisServer } from './lib/redis-server.ts'
import { installObservatory } from './lib/observatory.ts'
import { replicaEnv, SERVING_MODES, servingModeSlug, testOtherServingModes } from './lib/serving-modes.ts'
import { printSummary, VITEST_REPORT } from './lib/test-summary.ts'
import { exitOnSignalWith, runToEnd, startProcess, stopAll, stopProcess } from './lib/supervisor.ts'
import { writeSiteStylesheet } from './lib/site-stylesheet.ts'
import { lastTestBuildPorts, prepareTestBuild } from './lib/test-build.ts'
import { freePort, waitForHttp } from '@plume/twins/free-port'
import { startTestContentLake, startTestSite, startTestSupabase, testServersEnv } from './lib/test-servers.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
// Node's compile cache on disk for every Node 24 process started from here (Playwright's runners and
// workers, the servers the tests restart, the CLIs): a module is compiled once per run rather than once
// per process (a Playwright runner's start: 2.4 → 2.1 CPU-s measured here).
process.env.NODE_COMPILE_CACHE ??= path.resolve('node_modules/.cache/node-compile-cache')
// `npm test -- e2e` runs only the browser tests; `npm test -- e2e tests/e2e/routes.spec.ts` only that file
// (arguments naming test files, or following --grep, go to Playwright).
const args = process.argv.slice(2)
const playwrightFilter = args.filter(
  (arg, i) => arg.includes('/') || arg.endsWith('.ts') || arg === '--grep' || args[i - 1] === '--grep',
)
const only = args.filter((arg) => !playwrightFilter.includes(arg))
const wants = (part: string) => only.length === 0 || only.includes(part)
let failedSteps = 0
/** Stops the browser tests' Redis, once it runs. */
let stopRedis = async () => {}

/** How long each stage took, printed at the end. */
const stages: Array<{ name: string; ms: number }> = []
async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work()
  } finally {
    stages.push({ name, ms: performance.now() - started })
  }
}

/**
 * Runs a command to its end through the supervisor (which stops it, with the servers, if the test
 * command is interrupted). Its output goes to the terminal as it comes, or, with `buffer`, is printed
 * in one piece when it ends so that lanes running at once do not interleave. A failure is counted.
 */
async function run(
  title: string,
  command: string,
  commandArgs: string[],
  { env = {}, buffer = false }: { env?: Record<string, string | undefined>; buffer?: boolean } = {},
): Promise<boolean> {
  if (!buffer) console.log(`\n▶ ${title}`)
  const { code, output } = await runToEnd(command, commandArgs, { env, buffer })
  if (buffer) console.log(`\n▶ ${title}\n${output.trimEnd()}`)
  if (code !== 0) {
    console.error(`✖ ${title} failed (exit ${code})`)
    failedSteps++
  }
  return code === 0
}

// The servers of the browser tests (scripts/lib/test-servers.ts) are kept running by the supervisor:
// the restart test kills -9 the Content Lake and the site (PIDs in test-results/pids/) to check that
// published edits survive a restart of everything; one that keeps dying is a failed step. Everything
// stops when this ends, or on Ctrl-C (exit 130).
const serverGaveUp = (message: string) => {
  console.error(`✖ ${message}`)
  failedSteps++
}
exitOnSignalWith(130)

// A Redis for the shared cache of several replicas (the vitest lane's tag-sync test, the browser tests'
// replicas): found or installed once, here, before the lanes (two apt-get at once would collide).
try {
  process.env.REDIS_SERVER_PATH = findRedisServer()
} catch (error) {
  console.error(`✖ ${(error as Error).message}`)
  failedSteps++
}

mkdirSync('test-results', { recursive: true })
rmSync(VITEST_REPORT, { force: true })
/** A Playwright run's own JSON report and artifacts folder (runs at once would write over each other's). */
const reportFile = (slug: string) => `test-results/playwright-${slug}.json`
const ownReport = (slug: string) => ({
  PLAYWRIGHT_JSON_FILE: reportFile(slug),
  PLAYWRIGHT_OUTPUT_DIR: `test-results/playwright-${slug}`,
})
// The site's run keeps the config's default report; the Studio's, the inbox's, the restart's and each
// other way of serving (scripts/lib/serving-modes.ts) have their own.
const PLAYWRIGHT_REPORTS = [
  'test-results/playwright.json',
  ...['studio', 'inbox', 'restart', ...SERVING_MODES.map(servingModeSlug)].map(reportFile),
]
for (const report of PLAYWRIGHT_REPORTS) rmSync(report, { force: true })

// The whole stylesheet's address, for TypeScript; the build writes it again, identical, so leaves it as is.
await writeSiteStylesheet()
// 2. The lanes. TypeGen leads the static lane; the build, told it runs there, does not run it again
// (it would write the types while TypeScript reads them) and does not wait for it: it reads only types.
const typesChecked = wants('static')
const lanes: Promise<unknown>[] = []
let typegen = Promise.resolve(true)
if (wants('static')) {
  typegen = run('Sanity schema extract + TypeGen', 'npm', ['run', '--silent', 'typegen'], { buffer: true })
  lanes.push(
    timed('Lane: TypeGen, TypeScript, ESLint, Prettier', async () => {
      await typegen
      await run('TypeScript', 'tsc', ['--noEmit'], { buffer: true })
      await run('ESLint', 'eslint', ['.', '--max-warnings=0'], { buffer: true })
      await run(
        'Prettier (the formatting is part of the verdict: npm run format writes it)',
        'prettier',
        ['--check', '.', '--log-level=warn'],
        { buffer: true },
      )
    }),
  )
}
if (wants('unit')) {
  if (process.env.TEST_DATABASE_URL)
    console.log(
      `\nPostgreSQL portability: the policy tests also run on ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`,
    )
  else
    console.log(
      '\nPostgreSQL portability: NOT run here (set TEST_DATABASE_URL to a PostgreSQL 15 server; .ci/run starts one). The policy tests run on PGlite only.',
    )
  lanes.push(
    timed('Lane: unit and integration tests (vitest)', () =>
      run(
        'Unit and integration tests (vitest)',
        'vitest',
        ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_REPORT}`],
        { buffer: true },
      ),
    ),
  )
}
type BrowserTests = { playwrightEnv: Record<string, string>; buildEnv: Record<string, string> }
let browserTests: BrowserTests | null = null
const serversLane = wants('e2e')
  ? timed('Lane: Content Lake, validation, build, servers', async () => (browserTests = await prepareBrowserTests()))
  : null
if (serversLane) lanes.push(serversLane)
if (lanes.length > 1) console.log(`\n▶ ${lanes.length} lanes at once; each prints its output when it ends.`)

// 2. The browser tests, as soon as their servers are up: the other lanes may still be finishing (their
// last files leave a core idle), and no test measures the machine, so sharing it costs none a verdict.
await (serversLane ?? Promise.all(lanes))
// Assigned inside the lane above: TypeScript cannot see it, hence the restated type.
const prepared = browserTests as BrowserTests | null
if (prepared) {
  const { playwrightEnv, buildEnv } = prepared
  // The public site on a desktop and a phone, and beside them the inbox's tests: they read no content
  // and wait on the local Supabase more than they compute (one worker, its files in turn, each seeding
  // and counting its own tagged messages), so they fill what the site's two workers leave of the
  // machine, instead of running on alone at the end while the Studio's tests have finished.
  await Promise.all([
    timed('Browser tests (Playwright: desktop, mobile)', () =>
      run(
        'Browser tests (Playwright, Chromium)',
        'playwright',
        ['test', '--project=desktop', '--project=mobile', '--pass-with-no-tests', ...playwrightFilter],
        { env: playwrightEnv },
      ),
    ),
    timed('Inbox browser tests (Playwright: inbox, beside the site tests)', () =>
      run(
        'Inbox browser tests',
        'playwright',
        ['test', '--project=inbox', '--workers=1', '--pass-with-no-tests', ...playwrightFilter],
        { buffer: true, env: { ...playwrightEnv, ...ownReport('inbox') } },
      ),
    ),
  ])
  // The second replica the restart tests need (below), started now so that it is up by then: it takes
  // no request before them. Started as an operator starts one by hand: `npm run serve` given REDIS_URL.
  const replicaPort = await freePort()
  const replica = startProcess(process.execPath, ['scripts/serve.ts', '-p', `${replicaPort}`, '-H', '127.0.0.1'], {
    logFile: 'test-results/replica.log',
    env: replicaEnv(buildEnv),
  })
  // Then the Studio, as it publishes content the pages above are checked against: its three files (they
  // edit different documents) at once, a Studio each (they wait on saves and listeners more than they
  // compute). Beside them the other ways of serving the build, a server and a worker each.
  await Promise.all([
    timed('Studio browser tests (Playwright: studio)', () =>
      run(
        'Studio browser tests (the editorial loop)',
        'playwright',
        ['test', '--project=studio', '--no-deps', '--workers=3', '--pass-with-no-tests', ...playwrightFilter],
        { env: { ...playwrightEnv, ...ownReport('studio') } },
      ),
    ),
    timed('Browser tests against the other ways of serving (beside the Studio tests)', async () => {
      if (playwrightFilter.length > 0 && !playwrightFilter.some((arg) => arg.includes('serving-modes'))) return
      failedSteps += await testOtherServingModes({ buildEnv, playwrightEnv, run, ownReport })
    }),
  ])
  // Last and alone: a second replica of the build beside `npm start`'s, sharing its cache through Redis
  // (the replicas test stops and starts Redis); then the restart test kills the Content Lake and the site
  // every test above reads.
  await timed('Replicas and restart browser tests (Playwright: restart)', async () => {
    try {
      await waitForHttp(`http://127.0.0.1:${replicaPort}/robots.txt`, { timeoutMs: 60_000 })
      await run(
        'Browser tests: two replicas sharing a cache (Redis), then kill -9 and restart of the Content Lake and the site (replica log: test-results/replica.log)',
        'playwright',
        ['test', '--project=restart', '--no-deps', '--workers=1', '--pass-with-no-tests', ...playwrightFilter],
        {
          buffer: true,
          env: {
            ...playwrightEnv,
            REPLICA_URL: `http://127.0.0.1:${replicaPort}`,
            REDIS_URL: buildEnv.REDIS_URL ?? '',
            ...ownReport('restart'),
          },
        },
      )
    } catch (error) {
      console.error(`✖ the second replica did not start: ${(error as Error).message} (see test-results/replica.log)`)
      failedSteps++
    } finally {
      await stopProcess(replica)
    }
  })
}
await Promise.all(lanes)
await stopAll()
await stopRedis()

/**
 * The browser tests' servers and build: a local Content Lake (seeded) checked by Sanity's validator, the
 * production build read from it (reused when nothing it depends on changed: scripts/lib/test-build.ts),
 * the local Supabase and the site. Resolves with the browser tests' environment, or null when
 * something failed (already counted).
 */
async function prepareBrowserTests(): Promise<BrowserTests | null> {
  let chromium: string
  try {
    chromium = findChromium({ kind: 'headless-shell' })
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`)
    failedSteps++
    return null
  }
  // The build inlines these addresses: the ports of the last build, when they are still free, let a
  // rerun reuse it.
  const lastPorts = lastTestBuildPorts()
  const supabasePort = await freePort(lastPorts.supabase)
  const sitePort = await freePort(lastPorts.site)
  const lakePort = await freePort(lastPorts.lake)
  const siteUrl = `http://127.0.0.1:${sitePort}`
  const buildEnv = testServersEnv({ lakePort, supabasePort, sitePort })
  // MDN HTTP Observatory's grader for the security-header tests, installed apart
  // (scripts/lib/observatory.ts) from the start: npm spends most of it waiting on the registry.
  const observatory = installObservatory().catch((error) => {
    console.error(`\n✗ ${(error as Error).message}`)
    failedSteps++
    return ''
  })
  const lake = await startTestContentLake({ lakePort, siteUrl, onGiveUp: serverGaveUp })
  // Its viewer token and webhook secret, made for this run's folder: the site reads them as variables.
  Object.assign(buildEnv, lake.variables)
  // The Supabase twin starts meanwhile (its migrations take a while); the build reads no Supabase.
  const supabase = startTestSupabase({ supabasePort, onGiveUp: serverGaveUp })
  // Sanity's validator reads the Content Lake beside the build, which does not wait for its verdict
  // (a failure fails the run all the same).
  const validated = run(
    'Sanity document validation (sanity documents validate, against the local Content Lake)',
    'sanity',
    ['documents', 'validate', '--yes', '--level', 'error'],
    {
      buffer: true,
      env: {
        ...buildEnv,
        SANITY_INTERNAL_ENV: `http://localhost:${lakePort}`,
        SANITY_AUTH_TOKEN: lake.token,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ./scripts/lib/localhost-subdomains.ts`.trim(),
      },
    },
  )
  const runBuild = (env: NodeJS.ProcessEnv) =>
    run('Production build for the browser tests', 'npm', ['run', '--silent', 'build'], {
      buffer: true,
      // TypeGen ran first; TypeScript runs in its own lane.
      // Under CI the clone is thrown away: no later build reads Turbopack's disk cache (next.config.ts).
      env: {
        ...env,
        PLUME_TYPEGEN_DONE: typesChecked ? '1' : '',
        PLUME_TYPES_CHECKED_APART: typesChecked ? '1' : '',
        ...(process.env.CI && { PLUME_BUILD_CACHE: '0' }),
      },
    })
  const built = await prepareTestBuild(buildEnv, { supabase: supabasePort, site: sitePort, lake: lakePort }, runBuild)
  const { mailViewer } = await supabase
  await validated
  if (!built) return null
  // Every server of the build from here on is a replica sharing its cache through a Redis (REDIS_URL,
  // read at run time: the build did not see it); the replicas test stops and starts it again.
  const redisPort = await freePort()
  rmSync('test-results/redis.log', { force: true })
  const redis = process.env.REDIS_SERVER_PATH
    ? await startRedisServer({
        port: redisPort,
        binary: process.env.REDIS_SERVER_PATH,
        logFile: 'test-results/redis.log',
      }).catch((error: Error) => {
        console.error(`✖ Redis did not start: ${error.message}`)
        failedSteps++
        return null
      })
    : null
  if (redis) {
    buildEnv.REDIS_URL = redis.url
    stopRedis = redis.stop
  }
  await startTestSite({ sitePort, env: buildEnv, onGiveUp: serverGaveUp })
  const playwrightEnv = {
    ...buildEnv,
    OBSERVATORY_DIR: await observatory,
    BASE_URL: siteUrl,
    SUPABASE_URL: `http://127.0.0.1:${supabasePort}`,
    MAIL_VIEWER_URL: mailViewer.url,
    CONTENT_LAKE_URL: lake.contentLake!.url,
    CONTENT_LAKE_TOKEN: lake.token,
    CHROMIUM_PATH: chromium,
  }
  return { playwrightEnv, buildEnv }
}

process.exit(printSummary({ stages, playwrightReports: PLAYWRIGHT_REPORTS, failedSteps, totalMs: performance.now() }))
