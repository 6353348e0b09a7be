import { mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { waitForHttp } from '@plume/twins/free-port'

/*
 * What the benchmarks share: their command line, where a server's output goes, waiting for it, and the
 * percentile they print. Their servers are started and stopped by scripts/lib/supervisor.ts.
 */

export type BenchOptions = {
  /** The project's Sanity seed (an export: production.ndjson + images/). */
  seedDir: string
  /** Where the servers' output is written, one `<bench>.log` each. */
  resultsDir: string
  /** What follows the options (content-lake-load: which attack). */
  positionals: string[]
}

let parsed: BenchOptions | undefined

/**
 * `--seed-dir <folder>` (or BENCH_SEED_DIR; default studio/seed) and `--results-dir <folder>` (or
 * BENCH_RESULTS_DIR; default bench-results), both resolved from the working directory: the repository's
 * root, where `npm run bench:<name>` runs.
 */
export function benchOptions(): BenchOptions {
  if (!parsed) {
    const { values, positionals } = parseArgs({
      options: { 'seed-dir': { type: 'string' }, 'results-dir': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    })
    parsed = {
      seedDir: resolve(values['seed-dir'] ?? process.env.BENCH_SEED_DIR ?? join('studio', 'seed')),
      resultsDir: resolve(values['results-dir'] ?? process.env.BENCH_RESULTS_DIR ?? 'bench-results'),
      positionals,
    }
  }
  return parsed
}

/*
 * Where a benchmark's servers write their output. The benchmarks print a table, which a server's banner
 * would interleave, yet a crash's reason must not be lost: a file in the results folder (emptied at each
 * run) keeps it, and is named when a server does not answer.
 */
export function benchLog(bench: string, resultsDir = benchOptions().resultsDir): string {
  mkdirSync(resultsDir, { recursive: true })
  const file = join(resultsDir, `${bench}.log`)
  rmSync(file, { force: true })
  return file
}

/** waitForHttp, naming the log to read when the server does not answer. */
export async function waitForServer(url: string, logFile: string, timeoutMs = 60_000): Promise<void> {
  try {
    await waitForHttp(url, { timeoutMs })
  } catch (error) {
    throw new Error(`${(error as Error).message} (its output: ${logFile})`)
  }
}

/** The nearest-rank percentile of `values` (p in 0–100): the benchmarks' p50 and p95. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]
}
