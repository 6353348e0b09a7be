import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/*
 * The end of the test command: how long each stage took, the ten slowest tests (from the vitest and
 * Playwright JSON reports), and one line "N passed, M failed". Skipped, pending and flaky tests count
 * as failed: a test that did not run cleanly passed nothing.
 */

type Counts = { passed: number; failed: number }
type VitestReport = {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
  testResults?: Array<{ name: string; assertionResults?: Array<{ duration?: number; fullName: string }> }>
}
type PlaywrightSuite = {
  title: string
  specs?: Array<{
    file: string
    title: string
    tests?: Array<{ projectName: string; results?: Array<{ duration?: number }> }>
  }>
  suites?: PlaywrightSuite[]
}
type PlaywrightReport = {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  suites?: PlaywrightSuite[]
}

export const VITEST_REPORT = 'test-results/vitest.json'

const readReport = <Report>(file: string): Report | null =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : null

/** Every test of the reports with its duration (all its attempts). */
function testDurations(playwrightReports: string[]) {
  const tests: Array<{ ms: number; runner: string; title: string }> = []
  for (const file of readReport<VitestReport>(VITEST_REPORT)?.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      tests.push({
        ms: test.duration ?? 0,
        runner: 'vitest',
        title: `${path.relative(process.cwd(), file.name)} › ${test.fullName}`,
      })
    }
  }
  const visit = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0)
        tests.push({
          ms,
          runner: `playwright ${test.projectName}`,
          title: [spec.file, ...titles, spec.title].join(' › '),
        })
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title])
  }
  for (const file of playwrightReports)
    for (const suite of readReport<PlaywrightReport>(file)?.suites ?? []) visit(suite, [])
  return tests
}

// Whole seconds first, so 11 min 59.6 s reads 12 min 00 s rather than 11 min 60 s.
const minutesAndSeconds = (seconds: number) =>
  `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
const duration = (ms: number) =>
  ms >= 59_950 ? minutesAndSeconds(Math.round(ms / 1000)) : `${(ms / 1000).toFixed(1)} s`

/** Prints the summary; returns the exit code (0 only when something passed and nothing failed). */
export function printSummary({
  stages,
  playwrightReports,
  failedSteps,
  totalMs,
}: {
  stages: Array<{ name: string; ms: number }>
  playwrightReports: string[]
  failedSteps: number
  totalMs: number
}): number {
  if (stages.length) {
    const width = Math.max(...stages.map((stage) => stage.name.length), 'Total'.length)
    console.log('\nWhere the time went:')
    for (const stage of stages) console.log(`  ${stage.name.padEnd(width)}  ${duration(stage.ms).padStart(10)}`)
    console.log(`  ${'Total'.padEnd(width)}  ${duration(totalMs).padStart(10)}`)
  }
  const slowest = testDurations(playwrightReports)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
  if (slowest.length) {
    console.log('\nThe ten slowest tests:')
    for (const test of slowest)
      console.log(`  ${duration(test.ms).padStart(10)}  ${test.runner.padEnd(19)}  ${test.title}`)
  }
  const vitestReport = readReport<VitestReport>(VITEST_REPORT)
  const vitest: Counts = vitestReport
    ? {
        passed: vitestReport.numPassedTests,
        failed: vitestReport.numFailedTests + vitestReport.numPendingTests + vitestReport.numTodoTests,
      }
    : { passed: 0, failed: 0 }
  const playwright = playwrightReports
    .map((file) => readReport<PlaywrightReport>(file))
    .map((report): Counts =>
      report
        ? { passed: report.stats.expected, failed: report.stats.unexpected + report.stats.flaky + report.stats.skipped }
        : { passed: 0, failed: 0 },
    )
    .reduce((sum, run) => ({ passed: sum.passed + run.passed, failed: sum.failed + run.failed }), {
      passed: 0,
      failed: 0,
    })
  const passed = vitest.passed + playwright.passed
  const failed = vitest.failed + playwright.failed + failedSteps
  console.log(
    `\nvitest ${vitest.passed} passed / ${vitest.failed} failed; playwright ${playwright.passed} passed / ${playwright.failed} failed; failed steps ${failedSteps}`,
  )
  console.log(`${passed} passed, ${failed} failed`)
  return failed === 0 && passed > 0 ? 0 : 1
}
