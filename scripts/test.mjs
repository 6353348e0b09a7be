// `npm test`: every check and test of the project, as CI runs it (.ci/run).
//  1. three lanes at once, each printed in one piece when it ends (the machine is rarely busy in all
//     three at the same time: vitest waits on servers, the build on its workers):
//     - Sanity TypeGen, TypeScript and ESLint
//     - unit + integration tests (vitest)
//     - a local Content Lake (seeded), Sanity's own document validator over it, a production build
//       read from it, a local Supabase and the site
//  2. browser tests (Playwright + Debian's Chromium) against that build, once its lane has ended (the
//     others may still be finishing): the site, then the Studio, beside the other ways of serving the
//     same build (next start, the standalone folder) and then the inbox (it reads no content); last,
//     alone, the restart of the Content Lake and the site
// It ends with how long each stage took, the ten slowest tests, and one line "N passed, M failed"
// (non-zero exit code when anything failed).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { findChromium } from './lib/find-chromium.mjs'
import { e2eEnv, freePort, startE2eContentLake, startE2eSite, startE2eSupabase, waitForHttp } from './lib/backends.mjs'
import { installObservatory } from './lib/observatory.mjs'
import { makeStandaloneFolder } from './lib/standalone-folder.mjs'
import { copyTestBuildForNextStart, lastTestBuildPorts, prepareTestBuild } from './lib/test-build.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
// Node's compile cache on disk for every Node 24 process started from here (Playwright's runners and
// workers, the servers the tests restart, the CLIs): a module is compiled once per run rather than once
// per process (a Playwright runner's start: 2.4 → 2.1 CPU-s measured here).
process.env.NODE_COMPILE_CACHE ??= path.resolve('node_modules/.cache/node-compile-cache')
// `npm test -- e2e` runs only the browser tests; `npm test -- e2e tests/e2e/routes.spec.ts` only that file
// (arguments naming test files, or following --grep, go to Playwright).
const args = process.argv.slice(2)
const playwrightFilter = args.filter((arg, i) => arg.includes('/') || arg.endsWith('.ts') || arg === '--grep' || args[i - 1] === '--grep')
const only = args.filter((arg) => !playwrightFilter.includes(arg))
const wants = (part) => only.length === 0 || only.includes(part)
let failedSteps = 0

/** How long each stage took, printed at the end. */
const stages = []
async function timed(name, work) {
  const started = performance.now()
  try {
    return await work()
  } finally {
    stages.push({ name, ms: performance.now() - started })
  }
}

/** Playwright runs and commands of the lanes, stopped with the servers if the test command is interrupted. */
const children = []

/**
 * Runs a command without blocking the event loop (the supervisor restarts servers the tests kill, and
 * lanes run side by side). Its output goes to the terminal as it comes, or, with `buffer`, is kept and
 * printed in one piece when it ends so that lanes running at once do not interleave.
 */
function run(title, command, commandArgs, { env = {}, buffer = false } = {}) {
  if (!buffer) console.log(`\n▶ ${title}`)
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', buffer ? 'pipe' : 'inherit', buffer ? 'pipe' : 'inherit'], env: { ...process.env, ...env } })
    children.push(child)
    const output = []
    child.stdout?.on('data', (chunk) => output.push(chunk))
    child.stderr?.on('data', (chunk) => output.push(chunk))
    child.on('close', (code, signal) => {
      if (buffer) console.log(`\n▶ ${title}\n${Buffer.concat(output).toString().trimEnd()}`)
      if (code !== 0) {
        console.error(`✖ ${title} failed (exit ${code ?? signal})`)
        failedSteps++
      }
      resolve(code === 0)
    })
  })
}

// The servers of the browser tests (scripts/lib/backends.mjs) are supervised: the browser tests kill -9
// the Content Lake and the site (PIDs in test-results/pids/) to check that published edits survive a
// restart of everything; one that keeps dying is a failed step. All of them stop when this exits.
const servers = []
const stopServers = () => Promise.all(servers.splice(0).map((server) => server.stop()))
const serverGaveUp = (message) => {
  console.error(`✖ ${message}`)
  failedSteps++
}
process.on('SIGINT', () => process.exit(130))
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
})

mkdirSync('test-results', { recursive: true })
rmSync('test-results/vitest.json', { force: true })
/** A Playwright run's own JSON report and artifacts folder (runs at once would write over each other's). */
const reportFile = (slug) => `test-results/playwright-${slug}.json`
const ownReport = (slug) => ({ PLAYWRIGHT_JSON_FILE: reportFile(slug), PLAYWRIGHT_OUTPUT_DIR: `test-results/playwright-${slug}` })
// The site's run keeps the config's default report; the Studio's, the inbox's, the restart's and each
// other way of serving (its slug: testOtherServingModes) have their own.
const PLAYWRIGHT_REPORTS = ['test-results/playwright.json', ...['studio', 'inbox', 'restart', 'next-start', 'standalone-folder'].map(reportFile)]
for (const report of PLAYWRIGHT_REPORTS) rmSync(report, { force: true })

// 2. The lanes. TypeGen leads the static lane; the build waits for it (it reads its output, and would
// otherwise write it again while TypeScript reads it).
const typesChecked = wants('static')
const lanes = []
let typegen = Promise.resolve(true)
if (wants('static')) {
  typegen = run('Sanity schema extract + TypeGen', 'npm', ['run', '--silent', 'typegen'], { buffer: true })
  lanes.push(
    timed('Lane: TypeGen, TypeScript, ESLint', async () => {
      await typegen
      await run('TypeScript', 'tsc', ['--noEmit'], { buffer: true })
      await run('ESLint', 'eslint', ['.', '--max-warnings=0'], { buffer: true })
    }),
  )
}
if (wants('unit')) {
  if (process.env.TEST_DATABASE_URL) console.log(`\nPostgreSQL portability: the policy tests also run on ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`)
  else console.log('\nPostgreSQL portability: NOT run here (set TEST_DATABASE_URL to a PostgreSQL 15 server; .ci/run starts one). The policy tests run on PGlite only.')
  lanes.push(
    timed('Lane: unit and integration tests (vitest)', () =>
      run('Unit and integration tests (vitest)', 'vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'], { buffer: true }),
    ),
  )
}
let browserTests = null
const serversLane = wants('e2e') ? timed('Lane: Content Lake, validation, build, servers', async () => (browserTests = await prepareBrowserTests())) : null
if (serversLane) lanes.push(serversLane)
if (lanes.length > 1) console.log(`\n▶ ${lanes.length} lanes at once; each prints its output when it ends.`)

// 2. The browser tests, as soon as their servers are up: the other lanes may still be finishing (their
// last files leave a core idle), and no test measures the machine, so sharing it costs none a verdict.
await (serversLane ?? Promise.all(lanes))
if (browserTests) {
  const { playwrightEnv, buildEnv } = browserTests
  await timed('Browser tests (Playwright: desktop, mobile)', () =>
    run('Browser tests (Playwright, Chromium)', 'playwright', ['test', '--project=desktop', '--project=mobile', '--pass-with-no-tests', ...playwrightFilter], { env: playwrightEnv }),
  )
  // Then the Studio, as it publishes content the pages above are checked against: its two files (they
  // edit different documents) side by side, a worker and a Studio each. The other ways of serving the
  // build run beside them, then the inbox's tests (they read no content): each of these runs waits on
  // saves, refreshes and servers much of the time, and together they keep both cores busy.
  await Promise.all([
    timed('Studio browser tests (Playwright: studio)', () =>
      run('Studio browser tests (the editorial loop)', 'playwright', ['test', '--project=studio', '--no-deps', '--workers=2', '--pass-with-no-tests', ...playwrightFilter], {
        env: { ...playwrightEnv, ...ownReport('studio') },
      }),
    ),
    (async () => {
      await timed('Browser tests against the other ways of serving (beside the Studio tests)', () => testOtherServingModes({ buildEnv, playwrightEnv }))
      await timed('Inbox browser tests (Playwright: inbox, beside the Studio tests)', () =>
        run('Inbox browser tests', 'playwright', ['test', '--project=inbox', '--workers=1', '--pass-with-no-tests', ...playwrightFilter], {
          buffer: true,
          env: { ...playwrightEnv, ...ownReport('inbox') },
        }),
      )
    })(),
  ])
  // Last and alone: it kills the Content Lake and the site every test above reads.
  await timed('Restart browser test (Playwright: restart)', () =>
    run('Browser test: kill -9 and restart of the Content Lake and the site', 'playwright', ['test', '--project=restart', '--no-deps', '--workers=1', '--pass-with-no-tests', ...playwrightFilter], {
      buffer: true,
      env: { ...playwrightEnv, ...ownReport('restart') },
    }),
  )
}
await Promise.all(lanes)
await stopServers()

/**
 * The browser tests' servers and build: a local Content Lake (seeded) checked by Sanity's validator, the
 * production build read from it (reused when nothing it depends on changed: scripts/lib/test-build.mjs),
 * the local Supabase and the site. Resolves with the browser tests' environment, or null when
 * something failed (already counted).
 */
async function prepareBrowserTests() {
  let chromium
  try {
    chromium = findChromium({ kind: 'headless-shell' })
  } catch (error) {
    console.error(`✖ ${error.message}`)
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
  const buildEnv = e2eEnv({ lakePort, supabasePort, sitePort })
  // MDN HTTP Observatory's grader for the security-header tests, installed apart
  // (scripts/lib/observatory.mjs) from the start: npm spends most of it waiting on the registry.
  const observatory = installObservatory().catch((error) => {
    console.error(`\n✗ ${error.message}`)
    failedSteps++
    return ''
  })
  const lake = await startE2eContentLake({ lakePort, siteUrl, onGiveUp: serverGaveUp })
  servers.push(lake)
  // The Supabase twin starts meanwhile (its migrations take a while); the build reads no Supabase.
  const supabase = startE2eSupabase({ supabasePort, onGiveUp: serverGaveUp }).then((twin) => servers.push(twin))
  // Sanity's validator reads the Content Lake beside the build, which does not wait for its verdict
  // (a failure fails the run all the same).
  const validated = run('Sanity document validation (sanity documents validate, against the local Content Lake)', 'sanity', ['documents', 'validate', '--yes', '--level', 'error'], {
    buffer: true,
    env: {
      ...buildEnv,
      SANITY_INTERNAL_ENV: `http://localhost:${lakePort}`,
      SANITY_AUTH_TOKEN: lake.token,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ./scripts/lib/localhost-subdomains.mjs`.trim(),
    },
  })
  const runBuild = (env) =>
    run('Production build for the browser tests', 'npm', ['run', '--silent', 'build'], {
      buffer: true,
      // TypeGen ran first; TypeScript runs in its own lane.
      // Under CI the clone is thrown away: no later build reads Turbopack's disk cache (next.config.ts).
      env: { ...env, PLUME_TYPEGEN_DONE: typesChecked ? '1' : '', PLUME_TYPES_CHECKED_APART: typesChecked ? '1' : '', ...(process.env.CI && { PLUME_BUILD_CACHE: '0' }) },
    })
  await typegen
  const built = await prepareTestBuild(buildEnv, { supabase: supabasePort, site: sitePort, lake: lakePort }, runBuild)
  await supabase
  await validated
  if (!built) return null
  servers.push(await startE2eSite({ sitePort, env: buildEnv, onGiveUp: serverGaveUp }))
  const playwrightEnv = {
    ...buildEnv,
    OBSERVATORY_DIR: await observatory,
    BASE_URL: siteUrl,
    SUPABASE_URL: `http://127.0.0.1:${supabasePort}`,
    CONTENT_LAKE_URL: lake.contentLake.url,
    CONTENT_LAKE_TOKEN: lake.token,
    CHROMIUM_PATH: chromium,
  }
  return { playwrightEnv, buildEnv }
}

/**
 * The same build served the other ways a deployment serves it (docs/deploy.md): plain `next start`,
 * and the standalone folder of the container image (scripts/lib/standalone-folder.mjs: what the
 * Dockerfile copies, in an empty folder, started with its CMD). tests/e2e/serving-modes.spec.ts runs
 * against each, on a free loopback port; `npm start`'s server ran it with the other browser tests.
 */
async function testOtherServingModes({ buildEnv, playwrightEnv }) {
  if (playwrightFilter.length > 0 && !playwrightFilter.some((arg) => arg.includes('serving-modes'))) return
  const modes = [
    {
      name: 'next start',
      start: (port) => {
        // A copy of the build of its own (npm start's server rewrites .next-test meanwhile, under the
        // Studio tests).
        const distDir = copyTestBuildForNextStart(buildEnv.NEXT_DIST_DIR)
        return { command: 'next', args: ['start', '-p', String(port), '-H', '127.0.0.1'], env: { NEXT_DIST_DIR: distDir }, folder: distDir }
      },
    },
    {
      name: 'standalone folder',
      start: (port) => {
        const folder = mkdtempSync(path.join(tmpdir(), 'plume-standalone-'))
        const { cmd } = makeStandaloneFolder(folder, { distDir: buildEnv.NEXT_DIST_DIR })
        console.log(`  (standalone folder: ${folder}; command: ${cmd.join(' ')})`)
        // The image's command, on loopback; `node` is the Node this command runs on (the image's, 24).
        return { command: cmd[0] === 'node' ? process.execPath : cmd[0], args: [...cmd.slice(1), '-p', String(port), '-H', '127.0.0.1'], cwd: folder, folder }
      },
    },
  ]
  // Both at once, a Playwright worker each: their servers mostly wait on the browser.
  const ports = []
  while (ports.length < modes.length) {
    const port = await freePort()
    if (!ports.includes(port)) ports.push(port)
  }
  await Promise.all(
    modes.map(async (mode, index) => {
      const port = ports[index]
      const { command, args, cwd, folder, env = {} } = mode.start(port)
      const slug = mode.name.replace(/\W+/g, '-')
      const logFile = `test-results/${slug}.log`
      rmSync(logFile, { force: true })
      const output = openSync(logFile, 'a')
      const server = spawn(command, args, { cwd, stdio: ['ignore', output, output], env: { ...process.env, ...buildEnv, ...env, PORT: String(port) } })
      try {
        await waitForHttp(`http://127.0.0.1:${port}/robots.txt`, { timeoutMs: 60_000 })
        await run(`Browser tests against ${mode.name} (log: ${logFile})`, 'playwright', ['test', 'tests/e2e/serving-modes.spec.ts', '--project=desktop', '--workers=1'], {
          buffer: true,
          env: { ...playwrightEnv, BASE_URL: `http://127.0.0.1:${port}`, SERVING_MODE: mode.name, ...ownReport(slug) },
        })
      } catch (error) {
        console.error(`✖ ${mode.name} did not start: ${error.message} (see ${logFile})`)
        failedSteps++
      } finally {
        server.kill('SIGTERM')
        if (folder) rmSync(folder, { recursive: true, force: true })
      }
    }),
  )
}

const readReport = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null)

function countFrom(file, read) {
  const report = readReport(file)
  return report ? read(report) : { passed: 0, failed: 0 }
}

/** Every test of the vitest and Playwright JSON reports with its duration (all its attempts). */
function testDurations() {
  const tests = []
  for (const file of readReport('test-results/vitest.json')?.testResults ?? []) {
    for (const test of file.assertionResults ?? []) tests.push({ ms: test.duration ?? 0, runner: 'vitest', title: `${path.relative(process.cwd(), file.name)} › ${test.fullName}` })
  }
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0)
        tests.push({ ms, runner: `playwright ${test.projectName}`, title: [spec.file, ...titles, spec.title].join(' › ') })
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title])
  }
  for (const file of PLAYWRIGHT_REPORTS) for (const suite of readReport(file)?.suites ?? []) visit(suite, [])
  return tests
}

// Whole seconds first, so 11 min 59.6 s reads 12 min 00 s rather than 11 min 60 s.
const minutesAndSeconds = (seconds) => `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
const duration = (ms) => (ms >= 59_950 ? minutesAndSeconds(Math.round(ms / 1000)) : `${(ms / 1000).toFixed(1)} s`)

if (stages.length) {
  const width = Math.max(...stages.map((stage) => stage.name.length), 'Total'.length)
  console.log('\nWhere the time went:')
  for (const stage of stages) console.log(`  ${stage.name.padEnd(width)}  ${duration(stage.ms).padStart(10)}`)
  console.log(`  ${'Total'.padEnd(width)}  ${duration(performance.now()).padStart(10)}`)
}
const slowest = testDurations()
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 10)
if (slowest.length) {
  console.log('\nThe ten slowest tests:')
  for (const test of slowest) console.log(`  ${duration(test.ms).padStart(10)}  ${test.runner.padEnd(19)}  ${test.title}`)
}

const vitest = countFrom('test-results/vitest.json', (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + r.numPendingTests + r.numTodoTests }))
const playwrightCounts = (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky + r.stats.skipped })
const playwright = PLAYWRIGHT_REPORTS.map((file) => countFrom(file, playwrightCounts)).reduce((sum, run) => ({ passed: sum.passed + run.passed, failed: sum.failed + run.failed }))
const passed = vitest.passed + playwright.passed
const failed = vitest.failed + playwright.failed + failedSteps
console.log(`\nvitest ${vitest.passed} passed / ${vitest.failed} failed; playwright ${playwright.passed} passed / ${playwright.failed} failed; failed steps ${failedSteps}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && passed > 0 ? 0 : 1)
