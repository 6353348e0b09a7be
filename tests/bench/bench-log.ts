import { mkdirSync, rmSync } from 'node:fs'
import { waitForHttp } from '@plume/twins/free-port'

/*
 * Where a benchmark's servers and builds write their output. The supervisor (scripts/lib/supervisor.ts)
 * sends a child's stdout and stderr to one place: the terminal, nowhere, or a file. The benchmarks print
 * a table, which servers' banners and builds' progress would interleave, yet a crash's reason must not
 * be lost: a file in bench-results/ (emptied at each run) keeps both, and is named when a server does
 * not answer or a build fails.
 */
export function benchLog(bench: string): string {
  mkdirSync('bench-results', { recursive: true })
  const file = `bench-results/${bench}.log`
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
