import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@plume/twins/free-port'
import { buildInputs, buildIsCurrent, writeBuildStamp } from '../../scripts/lib/build-stamp.ts'
import {
  SEED_DIR,
  siteVariables,
  startTwins,
  supabaseTwinUrl,
  twinAddressVariables,
  twinsFor,
} from '../../scripts/lib/start-twins.ts'
import { beforeShutdown, runToEnd, stopAll } from '../../scripts/lib/supervisor.ts'

/*
 * The site's production build the origin benchmarks serve (.next-bench, rebuilt when its sources
 * change), read from a fresh Content Lake on the port the build was made for (recorded: a reused build
 * expects it there). The variables the build and its servers read are set in process.env.
 */

export const BENCH_DIST_DIR = '.next-bench'

/**
 * Starts the Content Lake, builds when stale (its output in `logFile`); `cleanUp` stops everything.
 * `webhookTo`: a site whose /api/revalidate the Content Lake calls on each publish (none by default).
 */
export async function startBenchSite(
  logFile: string,
  { webhookTo }: { webhookTo?: string } = {},
): Promise<{ cleanUp: () => Promise<void> }> {
  const lakePortFile = join(BENCH_DIST_DIR, 'bench-content-lake-port')
  const lakePort = existsSync(lakePortFile) ? Number(readFileSync(lakePortFile, 'utf8')) : await freePort()
  const lakeDir = mkdtempSync(join(tmpdir(), 'plume-bench-lake-'))
  // The Supabase twin's default address: the build inlines it, the benchmarks send it nothing.
  const supabaseUrl = supabaseTwinUrl(twinsFor({}).supabase!)
  Object.assign(process.env, {
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: BENCH_DIST_DIR,
    ...twinAddressVariables({ contentLakePort: lakePort, supabaseUrl }),
  })
  // Its data goes once the supervisor has stopped it: at the end, on an error, on Ctrl-C.
  const cleanUp = async () => {
    await stopAll()
    rmSync(lakeDir, { recursive: true, force: true })
  }
  beforeShutdown(cleanUp)
  const twins = await startTwins({
    contentLake: {
      port: lakePort,
      seedDir: SEED_DIR,
      dataDir: lakeDir,
      ...(webhookTo ? { siteUrl: webhookTo } : { webhook: false }),
    },
    quiet: true,
  })
  Object.assign(process.env, await siteVariables(twins))
  if (!buildIsCurrent(BENCH_DIST_DIR)) {
    console.log(`▶ building the site into ${BENCH_DIST_DIR}`)
    const inputs = buildInputs()
    const { code } = await runToEnd('npm', ['run', '--silent', 'build'], { logFile })
    if (code !== 0) throw new Error(`the build failed (exit ${code}; its output: ${logFile})`)
    writeBuildStamp(BENCH_DIST_DIR, inputs)
    writeFileSync(lakePortFile, String(lakePort))
  }
  return { cleanUp }
}
