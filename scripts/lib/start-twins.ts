import { realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { freePort, isPortTaken } from '@plume/twins/free-port'
import {
  CONTENT_LAKE,
  MAIL_VIEWER,
  MAIL_VIEWER_PORTS,
  SUPABASE,
  twinOnPort,
  type ContentLakeOptions,
  type MailViewerOptions,
  type SupabaseOptions,
  type TwinKind,
} from '@plume/twins/twins'
import {
  contentLakeAddresses,
  contentLakeCredentials,
  contentLakeVariables,
  supabaseVariables,
} from '@plume/twins/site-variables'
import { LOCAL_CONTENT_LAKE_PORT, LOCAL_SUPABASE_URL } from '@plume/twins/defaults'
import { keepRunning, type Kept } from './supervisor.ts'

/*
 * Starts the local twins a configuration asks for, each kept running by the supervisor, and stops them:
 * `npm start`, `npm run dev`, the build, the test command and Playwright's webServer go through here
 * (the only script that imports the twins' package). What to start: the services the environment
 * names none of (twinsFor); how each twin is started, from the package's registry; what the site then
 * reads, the variables the running twins hand over (siteVariables), the same a hosted deployment sets.
 */

// The scripts' one way to the twins' package (a lint rule refuses any other): its port helpers too,
// and which twin answers on a port.
export { twinOnPort }

const root = join(import.meta.dirname, '..', '..')
/** What the twins take from this project: the Content Lake's seed and the Supabase folder. */
export const SEED_DIR = join(root, 'studio', 'seed')
export const SUPABASE_DIR = join(root, 'supabase')

export type TwinsConfig = {
  contentLake?: ContentLakeOptions
  supabase?: SupabaseOptions
  /** Started with the Supabase twin (whose functions send email to it), on free ports when not given. */
  mailViewer?: MailViewerOptions
  /**
   * A twin of ours already answering on its port is used as it is (npm start twice): 'same-data' only
   * when it keeps the data folder asked for (another checkout's twin is refused, with a message),
   * 'any-data' whatever it keeps (the build reads the Content Lake the configuration points at).
   */
  reuseRunning?: 'same-data' | 'any-data'
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
export type RunningTwins = {
  contentLake?: RunningTwin & { httpsUrl: string }
  supabase?: RunningTwin
  mailViewer?: RunningTwin & { smtpUrl: string }
  stop: () => Promise<void>
}

export class TwinStartError extends Error {}

const blank = (value: string | undefined) => value === undefined || value.trim() === ''
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

export function portVariable(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name]?.trim()
  if (!value) return fallback
  const port = Number(value)
  if (!/^\d+$/.test(value) || port < 1 || port > 65534)
    throw new TwinStartError(`${name} must be a port number, got "${value}"`)
  return port
}

/**
 * startTwins' configuration for the services this environment names none of: the Content Lake when
 * NEXT_PUBLIC_SANITY_PROJECT_ID is empty (on CONTENT_LAKE_PORT, default 54380), the Supabase twin when
 * NEXT_PUBLIC_SUPABASE_URL is empty or a loopback URL (on its port, default 54321), with the mail viewer
 * its functions send to (MAIL_VIEWER_PORT, default 54324, SMTP on the next port).
 */
export function twinsFor(
  env: Record<string, string | undefined> = process.env,
  options: {
    contentLake?: Partial<ContentLakeOptions>
    supabase?: Partial<SupabaseOptions>
    mailViewer?: Partial<MailViewerOptions>
  } = {},
): Pick<TwinsConfig, 'contentLake' | 'supabase' | 'mailViewer'> {
  const config: Pick<TwinsConfig, 'contentLake' | 'supabase' | 'mailViewer'> = {}
  if (blank(env.NEXT_PUBLIC_SANITY_PROJECT_ID)) {
    const port = portVariable(env, 'CONTENT_LAKE_PORT', LOCAL_CONTENT_LAKE_PORT)
    config.contentLake = { port, seedDir: SEED_DIR, ...options.contentLake }
  }
  let supabaseUrl: URL
  try {
    supabaseUrl = new URL(
      blank(env.NEXT_PUBLIC_SUPABASE_URL) ? LOCAL_SUPABASE_URL : env.NEXT_PUBLIC_SUPABASE_URL!.trim(),
    )
  } catch {
    throw new TwinStartError(`NEXT_PUBLIC_SUPABASE_URL must be a URL, got "${env.NEXT_PUBLIC_SUPABASE_URL}"`)
  }
  if (LOOPBACK.has(supabaseUrl.hostname)) {
    const port = Number(supabaseUrl.port || (supabaseUrl.protocol === 'https:' ? 443 : 80))
    config.supabase = { port, supabaseDir: SUPABASE_DIR, ...options.supabase }
    const viewerPort = portVariable(env, 'MAIL_VIEWER_PORT', MAIL_VIEWER_PORTS.port)
    config.mailViewer = { port: viewerPort, smtpPort: viewerPort + 1, ...options.mailViewer }
  }
  return config
}

/**
 * The variables the site reads, as the running twins hand them over (README, Configure): the Content
 * Lake's addresses, its viewer token and webhook secret; the Supabase twin's URL and the CLI's demo keys.
 * Set on the site's process (and its build) over whatever the environment had: the twins are the
 * services it will talk to. A twin's URL is known before it starts (a build inlines it, and reads no
 * Supabase): pass `{ url }` for one that is not running.
 */
export async function siteVariables(twins: {
  contentLake?: { port: number }
  supabase?: { url: string }
}): Promise<Record<string, string>> {
  return {
    ...(twins.contentLake &&
      contentLakeVariables(twins.contentLake.port, await contentLakeCredentials(twins.contentLake.port))),
    ...(twins.supabase && supabaseVariables(twins.supabase.url)),
  }
}

/** The variables known before the twins start (a build inlines them): addresses and public keys, no secret. */
export function twinAddressVariables(twins: {
  contentLakePort?: number
  supabaseUrl?: string
}): Record<string, string> {
  return {
    ...(twins.contentLakePort !== undefined && contentLakeAddresses(twins.contentLakePort)),
    ...(twins.supabaseUrl !== undefined && supabaseVariables(twins.supabaseUrl)),
  }
}

/**
 * The addresses the twins this environment needs will have (twinsFor), for a command that loads the
 * site's configuration without talking to a service (TypeGen's schema extraction): no secret, nothing
 * started.
 */
export function plannedTwinAddresses(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const { contentLake, supabase } = twinsFor(env)
  return twinAddressVariables({
    contentLakePort: contentLake?.port,
    supabaseUrl: supabase && `http://127.0.0.1:${supabase.port}`,
  })
}

/**
 * For a command that acts on this folder's Supabase (admin:create, messages:purge): the project the
 * environment names with its service-role key, or the local twin as `npm start` runs it, with a refusal
 * when the twin on that port is another folder's.
 */
export async function configuredSupabase(
  env: Record<string, string | undefined> = process.env,
): Promise<{ url: string; local: boolean; serviceRoleKey: string | undefined; refusal: string | null }> {
  const { supabase } = twinsFor(env)
  if (!supabase)
    return {
      url: env.NEXT_PUBLIC_SUPABASE_URL!.trim().replace(/\/+$/, ''),
      local: false,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY || undefined,
      refusal: null,
    }
  const variables = supabaseVariables(`http://127.0.0.1:${supabase.port}`)
  return {
    url: variables.NEXT_PUBLIC_SUPABASE_URL,
    local: true,
    serviceRoleKey: variables.SUPABASE_SERVICE_ROLE_KEY,
    refusal: await anotherFoldersSupabase(supabase.port),
  }
}

/** Polls `ready` until it is true, the twin is given up on, or 5 minutes pass (PGlite's first migration is slow). */
async function waitUntil(what: string, ready: () => Promise<boolean>, gaveUp: () => string | undefined) {
  // A ceiling for hangs: on a busy 2-core machine the Supabase twin (Postgres in WebAssembly) took over a minute.
  const ceilingMs = 300_000
  const deadline = Date.now() + ceilingMs
  while (Date.now() < deadline) {
    const reason = gaveUp()
    if (reason) throw new TwinStartError(reason)
    if (await ready()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new TwinStartError(`${what} did not answer within ${ceilingMs / 1000} s`)
}

const realDataDir = (dataDir: string | undefined) => {
  if (!dataDir) return null
  try {
    return realpathSync(dataDir)
  } catch {
    return resolve(dataDir)
  }
}

/**
 * false when the port is free; true when the same twin, on the same data folder, answers there and may
 * be reused; else throws with what to do (another program, or this twin of another checkout, whose
 * content is not this one's).
 */
async function reusable(
  twin: Pick<TwinKind<ContentLakeOptions>, 'name' | 'what' | 'variable'>,
  options: { port: number; dataDir?: string },
  reuse: TwinsConfig['reuseRunning'],
): Promise<boolean> {
  const { port } = options
  if (!(await isPortTaken(port))) return false
  const identity = reuse ? await twinOnPort(port) : null
  if (identity?.twin === twin.name) {
    const wanted = realDataDir(options.dataDir)
    if (identity.dataDir === wanted || reuse === 'any-data') return true
    throw new TwinStartError(
      `Port ${port} is used by ${twin.what} of another folder (pid ${identity.pid}, its data: ` +
        `${identity.dataDir ?? 'in memory'}; this folder's: ${wanted ?? 'in memory'}). ` +
        `Stop that one, or set ${twin.variable} to another port.`,
    )
  }
  throw new TwinStartError(
    reuse
      ? `Port ${port} (${twin.what}) is already in use by something else. Stop it, or set ${twin.variable} to another port or to a hosted project.`
      : `Port ${port} (${twin.what}) is already in use. Stop what runs there, or choose another port.`,
  )
}

/**
 * For a command that acts on this folder's running Supabase twin (admin:create, messages:purge), as
 * `npm start` would use it: why it must not, when the twin on `port` is another folder's (or a
 * throwaway one, e.g. a test run's), whose database it would change; null when the twin there keeps
 * this folder's data, and when none of ours answers (`supabase start`, which the configuration may
 * name; or nothing, which the command then reports as unreachable).
 */
export async function anotherFoldersSupabase(port: number, dataDir = '.data/supabase'): Promise<string | null> {
  const identity = await twinOnPort(port)
  if (identity?.twin !== 'supabase') return null
  const wanted = realDataDir(dataDir)
  if (identity.dataDir === wanted) return null
  return (
    `The local Supabase on port ${port} is another folder's (pid ${identity.pid}, its data: ` +
    `${identity.dataDir ?? 'in memory'}; this folder's: ${wanted}): nothing was changed there. Run ` +
    `\`npm start\` in this folder first (NEXT_PUBLIC_SUPABASE_URL=http://127.0.0.1:<another port> if ` +
    `that one keeps running), and this command with the same NEXT_PUBLIC_SUPABASE_URL.`
  )
}

/** The URL of the Supabase twin `twinsFor` configured, running or not. */
export const supabaseTwinUrl = (supabase: SupabaseOptions) => `http://127.0.0.1:${supabase.port}`

/**
 * Starts the twins `config` names and resolves once each answers. Throws TwinStartError with what to do
 * when a port is held by something else.
 */
export async function startTwins(config: TwinsConfig): Promise<RunningTwins> {
  const kept: Kept[] = []
  let givenUp: string | undefined
  const stop = async () => {
    await Promise.all(kept.map((twin) => twin.stop()))
  }
  const onGiveUp = (message: string) => {
    givenUp = message
    void stop().then(() => (config.onGiveUp ?? defaultGiveUp)(message))
  }
  const result: RunningTwins = { stop }

  /** One twin: reused when ours already answers (reuseRunning), else started, kept running and waited for. */
  async function startTwin<C extends ContentLakeOptions | SupabaseOptions | MailViewerOptions>(
    twin: TwinKind<C>,
    options: C,
  ): Promise<RunningTwin> {
    const reused = await reusable(twin, options, config.reuseRunning)
    let child: Kept | undefined
    if (!reused && 'smtpPort' in options && (await isPortTaken(options.smtpPort)))
      throw new TwinStartError(
        `Port ${options.smtpPort} (SMTP of ${twin.what}) is already in use. Stop what runs there, or set ${twin.variable} to another port.`,
      )
    if (!reused && 'dbPort' in options && options.dbPort && (await isPortTaken(options.dbPort)))
      throw new TwinStartError(
        `Port ${options.dbPort} (the database of ${twin.what}, for psql) is already in use. Stop what runs there (perhaps \`supabase start\`), or set SUPABASE_DB_PORT to another port.`,
      )
    if (!reused) {
      child = keepRunning(twin.name, twin.script, twin.args(options), {
        pidDir: config.pidDir,
        quiet: config.quiet,
        maxRestarts: config.maxRestarts,
        restartWindowMs: config.restartWindowMs,
        env: { ...twin.env, ...options.env },
        logFile: options.logFile,
        onGiveUp,
      })
      kept.push(child)
      const what = `${twin.what[0].toUpperCase()}${twin.what.slice(1)} (port ${options.port})`
      await waitUntil(
        what,
        async () => (await twinOnPort(options.port))?.twin === twin.name,
        () => givenUp,
      )
    }
    return { url: `http://127.0.0.1:${options.port}`, port: options.port, reused, pid: () => child?.pid() }
  }
  try {
    if (config.contentLake) {
      const lake = await startTwin(CONTENT_LAKE, config.contentLake)
      result.contentLake = { ...lake, httpsUrl: `https://localhost:${config.contentLake.port}` }
    }
    if (config.supabase) {
      // The mail viewer first: the Supabase twin's functions send to it (SMTP_URL unless set).
      const viewer = config.mailViewer ?? (await freeMailViewerPorts())
      const smtpUrl = `smtp://127.0.0.1:${viewer.smtpPort}`
      result.mailViewer = { ...(await startTwin(MAIL_VIEWER, viewer)), smtpUrl }
      result.supabase = await startTwin(SUPABASE, { smtpUrl, ...config.supabase })
    }
  } catch (error) {
    await stop()
    throw error
  }
  return result
}

/** Two distinct free ports for a throwaway mail viewer. */
export async function freeMailViewerPorts(): Promise<MailViewerOptions> {
  const port = await freePort()
  let smtpPort = await freePort()
  while (smtpPort === port) smtpPort = await freePort()
  return { port, smtpPort }
}

function defaultGiveUp(message: string) {
  console.error(`\n✖ ${message}\n  Everything was stopped.`)
  process.exit(1)
}
