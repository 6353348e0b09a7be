// `npm test`: every check and test of the project, as CI runs it (.ci/run).
//  1. Sanity TypeGen, TypeScript and ESLint        3. a local Content Lake (seeded), Sanity's own document
//  2. unit + integration tests (vitest)                 validator over it, a production build read from it
//                                                    4. browser tests (Playwright + Debian's Chromium)
//                                                       against that build and a local Supabase
// It ends with one line "N passed, M failed" and a non-zero exit code when anything failed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { findChromium } from './lib/find-chromium.mjs'
import { e2eEnv, freePort, startE2eContentLake, startE2eSite, startE2eSupabase } from './lib/backends.mjs'
import { installObservatory } from './lib/observatory.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
// `npm test -- e2e` runs only the browser tests; `npm test -- e2e tests/e2e/routes.spec.ts` only that file
// (arguments naming test files, or following --grep, go to Playwright).
const args = process.argv.slice(2)
const playwrightFilter = args.filter((arg, i) => arg.includes('/') || arg.endsWith('.ts') || arg === '--grep' || args[i - 1] === '--grep')
const only = args.filter((arg) => !playwrightFilter.includes(arg))
const wants = (part) => only.length === 0 || only.includes(part)
let failedSteps = 0

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (exit ${result.status ?? result.signal})`)
    failedSteps++
  }
  return result.status === 0
}

/** Like run(), but leaves the event loop free (the supervisor restarts servers the tests kill). */
function runAsync(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`)
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
    child.on('exit', (code, signal) => {
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

mkdirSync('test-results', { recursive: true })
rmSync('test-results/vitest.json', { force: true })
rmSync('test-results/playwright.json', { force: true })
rmSync('test-results/playwright-studio.json', { force: true })

if (wants('static')) {
  run('Sanity schema extract + TypeGen', 'npm', ['run', '--silent', 'typegen'])
  run('TypeScript', 'tsc', ['--noEmit'])
  run('ESLint', 'eslint', ['.', '--max-warnings=0'])
}

if (wants('unit')) {
  if (process.env.TEST_DATABASE_URL) console.log(`\nPostgreSQL portability: the policy tests also run on ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`)
  else console.log('\nPostgreSQL portability: NOT run here (set TEST_DATABASE_URL to a PostgreSQL 15 server; .ci/run starts one). The policy tests run on PGlite only.')
  run('Unit and integration tests (vitest)', 'vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'])
}

if (wants('e2e')) {
  let chromium
  try {
    chromium = findChromium()
  } catch (error) {
    console.error(`✖ ${error.message}`)
    failedSteps++
  }
  if (chromium) {
    const supabasePort = await freePort()
    const sitePort = await freePort()
    const lakePort = await freePort()
    const supabaseUrl = `http://127.0.0.1:${supabasePort}`
    const siteUrl = `http://127.0.0.1:${sitePort}`
    const lakeUrl = `http://127.0.0.1:${lakePort}`
    const buildEnv = e2eEnv({ lakePort, supabasePort, sitePort })
    const lake = await startE2eContentLake({ lakePort, siteUrl, onGiveUp: serverGaveUp })
    servers.push(lake)
    const lakeToken = lake.token
    run('Sanity document validation (sanity documents validate, against the local Content Lake)', 'sanity', ['documents', 'validate', '--yes', '--level', 'error'], {
      ...buildEnv,
      SANITY_INTERNAL_ENV: `http://localhost:${lakePort}`,
      SANITY_AUTH_TOKEN: lakeToken,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ./scripts/lib/localhost-subdomains.mjs`.trim(),
    })
    if (run('Production build for the browser tests', 'npm', ['run', '--silent', 'build'], buildEnv)) {
      servers.push(await startE2eSupabase({ supabasePort, onGiveUp: serverGaveUp }))
      servers.push(await startE2eSite({ sitePort, env: buildEnv, onGiveUp: serverGaveUp }))
      // MDN HTTP Observatory's grader for the security-header tests, installed apart (scripts/lib/observatory.mjs).
      let observatoryDir = ''
      try {
        observatoryDir = installObservatory()
      } catch (error) {
        console.error(`\n✗ ${error.message}`)
        failedSteps++
      }
      const playwrightEnv = {
        ...buildEnv,
        OBSERVATORY_DIR: observatoryDir,
        BASE_URL: siteUrl,
        SUPABASE_URL: supabaseUrl,
        CONTENT_LAKE_URL: lakeUrl,
        CONTENT_LAKE_TOKEN: lakeToken,
        CHROMIUM_PATH: chromium,
      }
      await runAsync('Browser tests (Playwright, Chromium)', 'playwright', ['test', '--project=desktop', '--project=mobile', '--pass-with-no-tests', ...playwrightFilter], playwrightEnv)
      // Last, as it publishes content the pages above are checked against.
      await runAsync('Studio browser tests (the editorial loop)', 'playwright', ['test', '--project=studio', '--no-deps', '--workers=1', '--pass-with-no-tests', ...playwrightFilter], {
        ...playwrightEnv,
        PLAYWRIGHT_JSON_FILE: 'test-results/playwright-studio.json',
      })
    }
    await stopServers()
  }
}

function countFrom(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0 }
  return read(JSON.parse(readFileSync(file, 'utf8')))
}
const vitest = countFrom('test-results/vitest.json', (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + r.numPendingTests + r.numTodoTests }))
const playwrightCounts = (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky + r.stats.skipped })
const site = countFrom('test-results/playwright.json', playwrightCounts)
const studio = countFrom('test-results/playwright-studio.json', playwrightCounts)
const playwright = { passed: site.passed + studio.passed, failed: site.failed + studio.failed }
const passed = vitest.passed + playwright.passed
const failed = vitest.failed + playwright.failed + failedSteps
console.log(`\nvitest ${vitest.passed} passed / ${vitest.failed} failed; playwright ${playwright.passed} passed / ${playwright.failed} failed; failed steps ${failedSteps}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && passed > 0 ? 0 : 1)
