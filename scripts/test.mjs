// `npm test`: every check and test of the project, as CI runs it (.ci/run).
//  1. Sanity TypeGen, TypeScript and ESLint        3. a production build wired to a local Supabase
//  2. unit + integration tests (vitest)              4. browser tests (Playwright + Debian's Chromium)
// It ends with one line "N passed, M failed" and a non-zero exit code when anything failed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs'
import { findChromium } from './lib/find-chromium.mjs'
import { freePort, waitForHttp } from './lib/free-port.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
const only = process.argv.slice(2) // e.g. `npm test -- e2e` runs only the browser tests
const wants = (part) => only.length === 0 || only.includes(part)
const children = []
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

function startBackground(command, args, env, logFile) {
  const output = logFile ? openSync(logFile, 'w') : 'inherit'
  const child = spawn(command, args, { stdio: ['ignore', output, output], env: { ...process.env, ...env } })
  children.push(child)
  return child
}

function stopBackground() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
}
process.on('exit', stopBackground)
process.on('SIGINT', () => process.exit(130))

mkdirSync('test-results', { recursive: true })
rmSync('test-results/vitest.json', { force: true })
rmSync('test-results/playwright.json', { force: true })

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
    const supabaseUrl = `http://127.0.0.1:${supabasePort}`
    const siteUrl = `http://127.0.0.1:${sitePort}`
    const buildEnv = { NEXT_DIST_DIR: '.next-test', NEXT_PUBLIC_SUPABASE_URL: supabaseUrl, NEXT_PUBLIC_SITE_URL: siteUrl }
    if (run('Production build for the browser tests', 'npm', ['run', '--silent', 'build'], buildEnv)) {
      // The contact-form tests all come from 127.0.0.1: raise the per-address limit (tested on its own).
      const supabaseArgs = ['supabase/local/server.ts', '--port', String(supabasePort), '--memory', '--contact-rate-limit', '100000']
      startBackground(process.execPath, supabaseArgs, { OUTBOX_DIR: 'test-results/outbox' }, 'test-results/local-supabase.log')
      console.log('  (local Supabase server log: test-results/local-supabase.log)')
      await waitForHttp(`${supabaseUrl}/auth/v1/health`, { timeoutMs: 60_000 })
      // The site as `npm start` serves it (scripts/serve-site.mjs: `next start` behind a request-target check).
      startBackground(process.execPath, ['scripts/serve-site.mjs', '-p', String(sitePort), '-H', '127.0.0.1'], buildEnv)
      await waitForHttp(siteUrl, { timeoutMs: 60_000 })
      run('Browser tests (Playwright, Chromium)', 'playwright', ['test'], {
        ...buildEnv,
        BASE_URL: siteUrl,
        SUPABASE_URL: supabaseUrl,
        CHROMIUM_PATH: chromium,
      })
      stopBackground()
    }
  }
}

function countFrom(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0 }
  return read(JSON.parse(readFileSync(file, 'utf8')))
}
const vitest = countFrom('test-results/vitest.json', (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + r.numPendingTests + r.numTodoTests }))
const playwright = countFrom('test-results/playwright.json', (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky + r.stats.skipped }))
const passed = vitest.passed + playwright.passed
const failed = vitest.failed + playwright.failed + failedSteps
console.log(`\nvitest ${vitest.passed} passed / ${vitest.failed} failed; playwright ${playwright.passed} passed / ${playwright.failed} failed; failed steps ${failedSteps}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && passed > 0 ? 0 : 1)
