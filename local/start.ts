import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isPortTaken } from './free-port.ts'

/*
 * Starts the twins a configuration asks for, each as a supervised child process, and stops all of
 * them: `npm start`, `npm run dev`, the build, the test command and Playwright's webServer go through
 * here. A twin that dies is started again (the browser tests kill -9 them, PIDs in `pidDir`); one that
 * keeps dying stops everything with a message. Children never outlive the caller: they are stopped on
 * stop(), on SIGINT/SIGTERM and when the caller exits, and end themselves if it is killed outright.
 */

const here = import.meta.dirname

type TwinOptions = {
  /** Port on 127.0.0.1 (0 is not allowed here: the caller must know it before the twin answers). */
  port: number
  /** Append the twin's output to this file (default: the caller's stdout/stderr, or nothing with quiet). */
  logFile?: string
  /** Extra environment of the twin's process. */
  env?: Record<string, string>
}

export type ContentLakeConfig = TwinOptions & {
  /** The project's seed (an export: production.ndjson + images/), imported into an empty dataset. */
  seedDir: string
  /** Where documents, assets, the certificate and the token live (default: memory only). */
  dataDir?: string
  /** The site: allowed CORS origin and webhook target. */
  siteUrl?: string
  /** Call the site's /api/revalidate on every published change (default true). */
  webhook?: boolean
}

export type SupabaseConfig = TwinOptions & {
  /** The project's Supabase folder: its migrations/ build the database, its functions/ answer /functions/v1. */
  supabaseDir: string
  /** Where the database lives (default: a throwaway one). */
  dataDir?: string
  /** SQL run after the migrations at every start (the project's settings for a test run). */
  startupSql?: string[]
  /** Proxies whose X-Forwarded-For entries the sign-in throttle trusts (default 1). */
  trustedProxyHops?: number
}

export type BackendsConfig = {
  contentLake?: ContentLakeConfig
  supabase?: SupabaseConfig
  /** A twin of ours already answering on its port is used as it is (npm start twice) instead of failing. */
  reuseRunning?: boolean
  /** Write `<name>.pid` here at each (re)start, for tests that kill a twin on purpose. */
  pidDir?: string
  /** Children's output discarded unless logged to a file. */
  quiet?: boolean
  /** How many restarts within `restartWindowMs` are tolerated before everything stops (default 5 in 60 s). */
  maxRestarts?: number
  restartWindowMs?: number
  /** Called once everything was stopped after a twin kept dying (default: print it and exit 1). */
  onGiveUp?: (message: string) => void
}

export type RunningTwin = { url: string; port: number; reused: boolean; pid: () => number | undefined }
export type Backends = {
  contentLake?: RunningTwin & { httpsUrl: string }
  supabase?: RunningTwin
  stop: () => Promise<void>
}

export class BackendStartError extends Error {}

/** A child process kept running: started again when it dies, until stop() or too many deaths. */
export type Supervised = { name: string; pid: () => number | undefined; stop: () => Promise<void> }

export type SuperviseOptions = {
  env?: Record<string, string | undefined>
  logFile?: string
  quiet?: boolean
  pidDir?: string
  maxRestarts?: number
  restartWindowMs?: number
  /** Called after the process died too often and was given up on. */
  onGiveUp: (message: string) => void
}

const live = new Set<ChildProcess>()
let exitHooksInstalled = false

/** Children die with the caller: on its exit (any way Node exits) and on Ctrl-C / SIGTERM. */
function installExitHooks() {
  if (exitHooksInstalled) return
  exitHooksInstalled = true
  process.on('exit', () => {
    for (const child of live) child.kill('SIGTERM')
  })
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      for (const child of live) child.kill('SIGTERM')
      // Only when nobody else decides how the caller ends (test.mjs, start.mjs have their own handlers).
      if (process.listenerCount(signal) === 1) process.exit(code)
    })
  }
}

/**
 * Runs `node <script> <args>` and starts it again whenever it dies unasked, as a process manager would.
 * The child gets an IPC channel it never reads: when the caller dies, even by kill -9, the channel
 * closes and the child ends itself (exit-with-parent.ts), so no twin is left behind holding a port.
 */
export function supervise(name: string, script: string, args: string[], options: SuperviseOptions): Supervised {
  installExitHooks()
  const { maxRestarts = 5, restartWindowMs = 60_000 } = options
  const output = options.logFile ? openSync(options.logFile, 'a') : options.quiet ? 'ignore' : 'inherit'
  if (options.pidDir) mkdirSync(options.pidDir, { recursive: true })
  const deaths: number[] = []
  let child: ChildProcess | undefined
  let stopping = false

  const launch = () => {
    const started = spawn(process.execPath, ['--import', join(here, 'exit-with-parent.ts'), script, ...args], {
      stdio: ['ignore', output, output, 'ipc'],
      env: { ...process.env, ...options.env },
    })
    child = started
    live.add(started)
    if (options.pidDir && started.pid) writeFileSync(join(options.pidDir, `${name}.pid`), String(started.pid))
    started.on('exit', (code, signal) => {
      live.delete(started)
      if (stopping) return
      const now = Date.now()
      deaths.push(now)
      while (deaths.length && deaths[0] < now - restartWindowMs) deaths.shift()
      if (deaths.length > maxRestarts) {
        options.onGiveUp(`${name} stopped ${deaths.length} times within ${Math.round(restartWindowMs / 1000)} s (last: ${signal ?? `exit ${code}`}); see its output above${options.logFile ? ` or in ${options.logFile}` : ''}.`)
        return
      }
      console.error(`[${name}] stopped (${signal ?? `exit ${code}`}); starting it again`)
      launch()
    })
  }
  launch()

  return {
    name,
    pid: () => child?.pid,
    stop: () => {
      stopping = true
      const current = child
      if (!current || current.exitCode !== null || current.signalCode !== null) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => current.kill('SIGKILL'), 10_000)
        current.once('exit', () => {
          clearTimeout(force)
          resolve()
        })
        current.kill('SIGTERM')
      })
    },
  }
}

/** Polls `ready` until it is true, the process gives up, or 5 minutes pass (PGlite's first migration is slow). */
async function waitUntil(what: string, ready: () => Promise<boolean>, gaveUp: () => string | undefined) {
  // A ceiling for hangs: on a busy 2-core machine the Supabase twin (Postgres in WebAssembly) took over a minute.
  const ceilingMs = 300_000
  const deadline = Date.now() + ceilingMs
  while (Date.now() < deadline) {
    const reason = gaveUp()
    if (reason) throw new BackendStartError(reason)
    if (await ready()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new BackendStartError(`${what} did not answer within ${ceilingMs / 1000} s`)
}

const answers = async (url: string, check: (response: Response) => Promise<boolean>) => {
  try {
    return await check(await fetch(url, { signal: AbortSignal.timeout(2000) }))
  } catch {
    return false
  }
}
const isOurContentLake = (port: number) => answers(`http://127.0.0.1:${port}/v1/ping`, async (response) => ((await response.json()) as { name?: string })?.name === 'local-content-lake')
const isSupabaseApi = (port: number) => answers(`http://127.0.0.1:${port}/auth/v1/health`, async (response) => response.ok)

/** How each twin is started and recognised on its port. */
type TwinKind<C> = {
  name: string
  what: string
  script: string
  isOurs: (port: number) => Promise<boolean>
  /** The variable that moves it elsewhere, named when its port is taken. */
  variable: string
  args: (options: C) => string[]
}

const CONTENT_LAKE: TwinKind<ContentLakeConfig> = {
  name: 'content-lake',
  what: 'the local Content Lake',
  script: 'content-lake/server.ts',
  isOurs: isOurContentLake,
  variable: 'NEXT_PUBLIC_SANITY_LOCAL_PORT',
  args: (lake) => [
    ...['--port', String(lake.port), '--seed-dir', lake.seedDir],
    ...(lake.dataDir ? ['--data-dir', lake.dataDir] : ['--memory']),
    ...(lake.siteUrl ? ['--site-url', lake.siteUrl] : []),
    ...(lake.webhook === false ? ['--no-webhook'] : []),
  ],
}

const SUPABASE: TwinKind<SupabaseConfig> = {
  name: 'supabase',
  what: 'the local Supabase API',
  script: 'supabase/server.ts',
  isOurs: isSupabaseApi,
  variable: 'NEXT_PUBLIC_SUPABASE_URL',
  args: (supabase) => [
    ...['--port', String(supabase.port), '--supabase-dir', supabase.supabaseDir],
    ...(supabase.dataDir ? ['--data-dir', supabase.dataDir] : ['--memory']),
    ...(supabase.startupSql ?? []).flatMap((statement) => ['--sql', statement]),
    ...(supabase.trustedProxyHops !== undefined ? ['--trusted-proxy-hops', String(supabase.trustedProxyHops)] : []),
  ],
}

/**
 * Starts the twins `config` names and resolves once each answers. Throws BackendStartError with what
 * to do when a port is held by something else.
 */
export async function startBackends(config: BackendsConfig): Promise<Backends> {
  const supervised: Supervised[] = []
  let givenUp: string | undefined
  const stop = async () => {
    await Promise.all(supervised.map((twin) => twin.stop()))
  }
  const onGiveUp = (message: string) => {
    givenUp = message
    void stop().then(() => (config.onGiveUp ?? defaultGiveUp)(message))
  }
  const common = { pidDir: config.pidDir, quiet: config.quiet, maxRestarts: config.maxRestarts, restartWindowMs: config.restartWindowMs, onGiveUp }
  const result: Backends = { stop }

  /** One twin: reused when ours already answers (reuseRunning), else started, supervised and waited for. */
  async function startTwin<C extends TwinOptions>(twin: TwinKind<C>, options: C): Promise<RunningTwin> {
    const reused = await portInUse(options.port, twin.what, twin.isOurs, config.reuseRunning, twin.variable)
    let child: Supervised | undefined
    if (!reused) {
      child = supervise(twin.name, join(here, twin.script), twin.args(options), { ...common, env: options.env, logFile: options.logFile })
      supervised.push(child)
      await waitUntil(`${twin.what[0].toUpperCase()}${twin.what.slice(1)} (port ${options.port})`, () => twin.isOurs(options.port), () => givenUp)
    }
    return { url: `http://127.0.0.1:${options.port}`, port: options.port, reused, pid: () => child?.pid() }
  }
  try {
    if (config.contentLake) result.contentLake = { ...(await startTwin(CONTENT_LAKE, config.contentLake)), httpsUrl: `https://localhost:${config.contentLake.port}` }
    if (config.supabase) result.supabase = await startTwin(SUPABASE, config.supabase)
  } catch (error) {
    await stop()
    throw error
  }
  return result
}

/** false when the port is free; true when a twin of ours answers there and may be reused; else throws. */
async function portInUse(port: number, what: string, isOurs: (port: number) => Promise<boolean>, reuse: boolean | undefined, variable: string): Promise<boolean> {
  if (!(await isPortTaken(port))) return false
  if (reuse && (await isOurs(port))) return true
  throw new BackendStartError(
    reuse
      ? `Port ${port} (${what}) is already in use by something else. Stop it, or set ${variable} to another port or to a hosted project.`
      : `Port ${port} (${what}) is already in use. Stop what runs there, or choose another port.`,
  )
}

function defaultGiveUp(message: string) {
  console.error(`\n✖ ${message}\n  Everything was stopped.`)
  process.exit(1)
}
