import { appendFileSync } from 'node:fs'
import { runToEnd } from '../../scripts/lib/supervisor.ts'

/*
 * One load of a URL with wrk (Debian: `apt-get install -y wrk`), as the origin benchmarks measure it:
 * kept-alive connections on 2 threads, a browser's Accept-Encoding, latencies recorded.
 */

export type WrkResult = { perSecond: number; p50: number; p99: number; bytes: number; errors: number }

const toMs = (value: string) => {
  const [, number, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(value) ?? []
  return Number(number) * ({ us: 0.001, ms: 1, s: 1000, m: 60000 } as Record<string, number>)[unit]
}
const toBytes = (value: string) => {
  const [, number, unit] = /^([\d.]+)([KMG]?B)$/.exec(value) ?? []
  return Number(number) * ({ B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as Record<string, number>)[unit]
}

/** Loads `url` for `seconds` on `connections` connections; wrk's own output goes to `logFile` when it measured nothing. */
export async function wrk(
  url: string,
  { seconds, connections, logFile }: { seconds: number; connections: number; logFile?: string },
): Promise<WrkResult> {
  const { output } = await runToEnd(
    'wrk',
    ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: br, gzip', url],
    { buffer: true },
  )
  if (logFile && !/Requests\/sec:/.test(output)) appendFileSync(logFile, `wrk said:\n${output}\n`)
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0)
  const read = toBytes(/requests in [\d.]+\w+, ([\d.]+\w+) read/.exec(output)?.[1] ?? '0B')
  return {
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: toMs(/\s50%\s+(\S+)/.exec(output)?.[1] ?? '0ms'),
    p99: toMs(/\s99%\s+(\S+)/.exec(output)?.[1] ?? '0ms'),
    bytes: requests ? Math.round(read / requests) : 0,
    errors:
      [...output.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((sum, [, count]) => sum + Number(count), 0) +
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  }
}
