import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { makeStandaloneFolder, twinTraces } from './standalone-folder.ts'
import { freePort, waitForHttp } from '@plume/twins/free-port'
import { startProcess, stopProcess } from './supervisor.ts'
import { copyTestBuildForNextStart } from './test-build.ts'

/*
 * The ways of serving the build besides `npm start` (docs/deploy.md), each started exactly as the docs
 * say, for the test command to run the serving-modes browser tests against.
 */

/** The ways of serving docs/deploy.md lists besides `npm start`, each started as it says. */
export type ServingMode = {
  name: string
  start: (
    port: number,
    distDir: string,
  ) => { command: string; args: string[]; cwd?: string; folder?: string; env?: Record<string, string> }
}
export const SERVING_MODES: ServingMode[] = [
  {
    name: 'next start',
    start: (port, distDir) => {
      // A copy of the build of its own (npm start's server rewrites .next-test meanwhile, under the
      // Studio tests).
      const copy = copyTestBuildForNextStart(distDir)
      return {
        command: 'next',
        args: ['start', '-p', String(port), '-H', '127.0.0.1'],
        env: { NEXT_DIST_DIR: copy },
        folder: copy,
      }
    },
  },
  {
    // What the Dockerfile's runtime stage copies (scripts/lib/standalone-folder.ts), in an empty folder,
    // started with its CMD; `node` is the Node this command runs on (the image's, 24).
    name: 'container image',
    start: (port, distDir) => {
      const folder = mkdtempSync(path.join(tmpdir(), 'plume-image-'))
      const { cmd } = makeStandaloneFolder(folder, { distDir })
      console.log(`  (the image's folder: ${folder}; command: ${cmd.join(' ')})`)
      return {
        command: cmd[0] === 'node' ? process.execPath : cmd[0],
        args: [...cmd.slice(1), '-p', String(port), '-H', '127.0.0.1'],
        cwd: folder,
        folder,
      }
    },
  },
  {
    // `node .next/standalone/server.js`, run from the checkout as written (it reads PORT and HOSTNAME).
    name: 'node .next/standalone/server.js',
    start: (_port, distDir) => ({
      command: process.execPath,
      args: [path.join(distDir, 'standalone', 'server.js')],
      env: { HOSTNAME: '127.0.0.1' },
    }),
  },
]
export const servingModeSlug = (mode: ServingMode) => mode.name.replace(/\W+/g, '-').replace(/^-|-$/g, '')

/**
 * The same build served the other ways a deployment serves it, each exactly as docs/deploy.md says:
 * tests/e2e/serving-modes.spec.ts runs against each, on a free loopback port, all at once (a Playwright
 * worker each: their servers mostly wait on the browser); `npm start`'s server ran it with the other
 * browser tests.
 */
export async function testOtherServingModes({
  buildEnv,
  playwrightEnv,
  run,
  ownReport,
}: {
  buildEnv: Record<string, string>
  playwrightEnv: Record<string, string>
  /** The test command's way to run a step (it counts a failure itself). */
  run: (
    title: string,
    command: string,
    args: string[],
    options: { buffer: boolean; env: Record<string, string> },
  ) => Promise<boolean>
  /** A Playwright run's own report and artifacts folder. */
  ownReport: (slug: string) => Record<string, string>
}): Promise<number> {
  let failedSteps = 0
  const ports: number[] = []
  while (ports.length < SERVING_MODES.length) {
    const port = await freePort()
    if (!ports.includes(port)) ports.push(port)
  }
  // Started in this order, synchronously: the image's folder is copied from the standalone folder before
  // the standalone folder's own server.js starts writing into it.
  const started = SERVING_MODES.map((mode, index) => {
    const port = ports[index]
    const { command, args, cwd, folder, env = {} } = mode.start(port, buildEnv.NEXT_DIST_DIR)
    const logFile = `test-results/${servingModeSlug(mode)}.log`
    rmSync(logFile, { force: true })
    const server = startProcess(command, args, { cwd, logFile, env: { ...buildEnv, ...env, PORT: String(port) } })
    return { mode, port, folder, logFile, server }
  })
  // Production holds nothing of the twins: neither the standalone folder nor the image's.
  const imageFolder = started.find(({ mode }) => mode.name === 'container image')?.folder
  const productionFolders = [path.join(buildEnv.NEXT_DIST_DIR, 'standalone'), imageFolder].filter(Boolean) as string[]
  for (const folder of productionFolders) {
    const traces = twinTraces(folder)
    if (traces.length === 0) continue
    console.error(`✖ ${folder} holds what only the twins need: ${traces.join(', ')}`)
    failedSteps++
  }
  // And it holds what the build read from the Content Lake, as `next start` finds it beside the build:
  // without it, a server started from it while the Content Lake is down answers an unknown address 500.
  // (The build's own cache grows meanwhile: npm start's server writes into it.)
  const buildCache = path.join(buildEnv.NEXT_DIST_DIR, 'cache', 'fetch-cache')
  const buildReads = existsSync(buildCache) ? readdirSync(buildCache) : []
  for (const folder of productionFolders) {
    const copied = path.join(folder, buildEnv.NEXT_DIST_DIR, 'cache', 'fetch-cache')
    const held = existsSync(copied) ? readdirSync(copied) : []
    if (held.length > 0 && held.every((entry) => buildReads.includes(entry))) continue
    console.error(`✖ ${folder} does not hold the build's Content Lake reads (${copied}: ${held.length} entries)`)
    failedSteps++
  }
  await Promise.all(
    started.map(async ({ mode, port, folder, logFile, server }) => {
      try {
        await waitForHttp(`http://127.0.0.1:${port}/robots.txt`, { timeoutMs: 60_000 })
        await run(
          `Browser tests against ${mode.name} (log: ${logFile})`,
          'playwright',
          ['test', 'tests/e2e/serving-modes.spec.ts', '--project=desktop', '--workers=1'],
          {
            buffer: true,
            env: {
              ...playwrightEnv,
              BASE_URL: `http://127.0.0.1:${port}`,
              SERVING_MODE: mode.name,
              ...ownReport(servingModeSlug(mode)),
            },
          },
        )
      } catch (error) {
        console.error(`✖ ${mode.name} did not start: ${(error as Error).message} (see ${logFile})`)
        failedSteps++
      } finally {
        await stopProcess(server)
        if (folder) rmSync(folder, { recursive: true, force: true })
      }
      // What the docs promise is what a user sees: no server may warn that it is the wrong way to serve.
      const log = readFileSync(logFile, 'utf8')
      const warning = log.match(/.*does not work with.*/)
      if (warning) {
        console.error(`✖ ${mode.name} warned: ${warning[0]}`)
        failedSteps++
      }
      // Served this way too, a replica shares its publishes (Next loaded the cache handler and its client):
      // at once, or once Redis answers (a busy machine can let the first connection time out).
      if (buildEnv.REDIS_URL && !/^\[shared cache\] .*publishes are shared/m.test(log)) {
        console.error(`✖ ${mode.name} did not share its cache through REDIS_URL (see ${logFile})`)
        failedSteps++
      }
    }),
  )
  return failedSteps
}

/**
 * A second replica's environment, as an operator starts one by hand (README, « Several replicas »):
 * `npm run serve` given REDIS_URL and where the twins run (the test's, not on their default ports); it
 * reads the services' variables off the running twins itself.
 */
export function replicaEnv(buildEnv: Record<string, string>): Record<string, string> {
  const { NEXT_DIST_DIR, REDIS_URL, SANITY_PROJECT_API_URL, NEXT_PUBLIC_SUPABASE_URL } = buildEnv
  return { NEXT_DIST_DIR, REDIS_URL, CONTENT_LAKE_PORT: new URL(SANITY_PROJECT_API_URL).port, NEXT_PUBLIC_SUPABASE_URL }
}
