import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { waitForHttp } from '../free-port.ts'

/*
 * What the twins' benchmarks share, the package's own (it imports nothing from the site): their command
 * line, where a server's output goes, a twin's server started in a process of its own and stopped, and
 * the percentile they print. The site's benchmarks (tests/bench/) have theirs; the output folder and
 * the log files' names are the same.
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
 * root for `node twins/bench/<bench>.ts`; the package's npm scripts, run in twins/, pass `../…`.
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
 * Where a benchmark's servers write their output (the twins' benchmarks and the site's, which pass
 * their own folder: tests/bench/). The benchmarks print a table, which a server's banner
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

/** How long a server may take to end after SIGTERM before it gets SIGKILL. */
const STOP_GRACE_MS = 10_000

/*
 * Preloaded into each server: the benchmark holds the other end of an IPC channel the server never
 * uses; when the benchmark dies, even by kill -9, the channel closes and the server ends itself as on
 * SIGTERM, so nothing is left holding a port. The channel alone keeps neither process alive.
 */
const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  `if (process.channel) { process.channel.unref(); process.once('disconnect', () => process.kill(process.pid, 'SIGTERM')) }`,
)}`

const running = new Set<ChildProcess>()
let hooksInstalled = false

function installHooks() {
  if (hooksInstalled) return
  hooksInstalled = true
  // However the benchmark ends (its last line, an uncaught error, Ctrl-C): no server outlives it.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM')
  })
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
    process.once(signal, () => {
      void Promise.all([...running].map((child) => stopServer(child))).then(() => process.exit(128 + number))
    })
  }
}

/**
 * Starts `node <script> <args>` (the Node running the benchmark) with `env` over the benchmark's own,
 * its output appended to `logFile` (default: the benchmark's stdout and stderr). Not restarted if it dies.
 */
export function startServer(
  script: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; logFile?: string } = {},
): ChildProcess {
  installHooks()
  const output = options.logFile ? openSync(options.logFile, 'a') : 'inherit'
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, script, ...args], {
    stdio: ['ignore', output, output, 'ipc'],
    env: { ...process.env, ...options.env },
  })
  if (typeof output === 'number') closeSync(output) // the child has its own copy
  child.channel?.unref()
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Ends `child` with SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export function stopServer(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
