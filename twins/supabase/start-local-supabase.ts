import { realpathSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { Socket } from 'node:net'
import { createAuthApi } from './auth-api.ts'
import { readAuthConfig } from './auth-config.ts'
import { openDatabase, type DatabaseOptions } from './database.ts'
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from './supabase-cli-settings.ts'
import { handleFunction, type PlatformEnv } from './functions-api.ts'
import { startCronRunner } from './cron-runner.ts'
import { startNetWorker } from './net-worker.ts'
import { startPostgresSocket } from './postgres-socket.ts'
import { storeVaultSecrets } from './vault-secrets.ts'
import {
  DEFAULT_CONNECTION_TIMEOUTS,
  httpServerLimits,
  silentSocketMs,
  type ConnectionTimeouts,
} from '../connection-limits.ts'
import {
  bearerToken,
  BodyTooLargeError,
  isAllowedHost,
  isLoopbackOrigin,
  LOOPBACK_NAMES,
  send,
  sendJson,
} from '../http-kit.ts'
import {
  clientAddress,
  corsHeaders,
  forwardedFor,
  headersForDatabase,
  isValidHostHeader,
  readBodyText,
} from './gateway.ts'
import { createJwtKit, JwtError, type ApiRole, type Claims } from './jwt.ts'
import { createLoginThrottle, DEFAULT_THROTTLE, type ThrottleOptions } from './login-throttle.ts'
import { createPasswordHasher, type PasswordHasherOptions } from './password-hasher.ts'
import { migrationsDir } from './migrations.ts'
import type { TwinIdentity } from '../twins.ts'

/** The largest request body the API reads (a larger one gets 413). */
export { MAX_BODY_BYTES } from './gateway.ts'
import { errorBody, handleRest } from './rest-api.ts'

/*
 * A Supabase-compatible server for development and tests: PostgREST (/rest/v1), GoTrue (/auth/v1)
 * and Edge Functions (/functions/v1) over PGlite, running our own migrations and functions. See
 * supabase-server.ts for the command line and twins/docs/supabase-wire.md for the wire format.
 */

export type LocalSupabaseOptions = {
  /** The project's Supabase folder (as `supabase init` makes it): its migrations/ build the database,
   *  its functions/<name>/handler.ts answer /functions/v1/<name>. */
  supabaseDir: string
  host?: string
  port?: number
  /** Folder for the database files; omit for an in-memory database. */
  dataDir?: string
  jwtSecret?: string
  anonKey?: string
  serviceRoleKey?: string
  /** SQL run after the migrations at every start, in order (as the Supabase CLI runs supabase/seed.sql
   *  after them): the project's own settings for a test run, for example. */
  startupSql?: string[]
  /** Proxies in front of this server whose X-Forwarded-For entries the sign-in throttle trusts
   *  (default 1: the address this server sees). */
  trustedProxyHops?: number
  loginThrottle?: Partial<ThrottleOptions>
  /** Overrides the API roles' statement_timeout in milliseconds (tests); default: the database's. */
  statementTimeouts?: DatabaseOptions['statementTimeouts']
  passwordHasher?: PasswordHasherOptions
  refreshReuseIntervalSeconds?: number
  log?: (entry: Record<string, unknown>) => void
  /** Limits on slow or silent clients (tests use small ones); defaults: DEFAULT_CONNECTION_TIMEOUTS. */
  connectionTimeouts?: Partial<ConnectionTimeouts>
  /** What the functions see for variables the process environment does not set (the start scripts
   *  give SMTP_URL: the local mail viewer's). */
  functionEnvDefaults?: Record<string, string>
  /** How often pg_net's worker reads its queue (default 1 s); null: only `net.drain()` does (tests that
   *  decide when a queued call, e.g. the contact notification's database webhook, is made). */
  netPollMs?: number | null
  /** The database's own Postgres port (postgres-socket.ts), as `supabase start` opens 54322; 0: any
   *  free one; omitted: none. */
  dbPort?: number
}

// The Supabase CLI's opaque keys map to the legacy JWTs, as its gateway does (twins/docs/supabase-wire.md §7).
const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'
const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'

export async function startLocalSupabase(options: LocalSupabaseOptions) {
  const host = options.host ?? '127.0.0.1'
  const anonKey = options.anonKey ?? LOCAL_ANON_KEY
  const serviceRoleKey = options.serviceRoleKey ?? LOCAL_SERVICE_ROLE_KEY
  const jwt = createJwtKit(options.jwtSecret ?? LOCAL_JWT_SECRET)
  const log = options.log ?? ((entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })))
  const database = await openDatabase({
    migrationsDir: migrationsDir(options.supabaseDir),
    dataDir: options.dataDir,
    statementTimeouts: options.statementTimeouts,
    log,
  })
  for (const statement of options.startupSql ?? []) await database.db.exec(statement)
  // The folder exists now (the database created it): its real path, as another checkout compares it.
  const twin: TwinIdentity = {
    twin: 'supabase',
    dataDir: options.dataDir ? realpathSync(options.dataDir) : null,
    pid: process.pid,
  }
  const trustedHops = options.trustedProxyHops ?? 1
  if (!Number.isInteger(trustedHops) || trustedHops < 0)
    throw new Error('trustedProxyHops must be a non-negative integer')
  const hasher = createPasswordHasher(options.passwordHasher)
  const functionsDir = join(options.supabaseDir, 'functions')
  const envDefaults = options.functionEnvDefaults ?? {}

  const keyToJwt = new Map([
    [anonKey, anonKey],
    [serviceRoleKey, serviceRoleKey],
    [PUBLISHABLE_KEY, anonKey],
    [SECRET_KEY, serviceRoleKey],
  ])

  // The auth API and the functions need this server's URL, known once it listens (the port may be 0 = any).
  const auth: { handle?: ReturnType<typeof createAuthApi> } = {}
  let platform: PlatformEnv = {
    SUPABASE_URL: '',
    SUPABASE_ANON_KEY: anonKey,
    SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
  }

  // The names this server answers to: the loopback ones (the site may name it by any of them in
  // NEXT_PUBLIC_SUPABASE_URL) and the address it listens on (SUPABASE_URL, which its functions and
  // pg_net call), an IPv6 one in brackets as a Host header spells it.
  const listenName = (host.includes(':') ? `[${host}]` : host).toLowerCase()
  const hostNames = LOOPBACK_NAMES.includes(listenName) ? LOOPBACK_NAMES : [...LOOPBACK_NAMES, listenName]

  async function route(request: IncomingMessage, response: ServerResponse) {
    const cors = corsHeaders(request)
    if (!isValidHostHeader(request.headers.host))
      return sendJson(response, 400, { message: 'Invalid Host header' }, cors)
    // DNS rebinding (../http-kit.ts): a page on a name of its own that resolves to 127.0.0.1 would read
    // the API as its own origin, CORS or not (the service role's key is a public demo value). Hosted,
    // the project's host name routes the request; here only this machine's names do. No CORS headers:
    // the site never names another host, and no page needs to read why. Its port: the one the
    // connection came in on.
    const port = request.socket.localPort
    if (!isAllowedHost(request.headers.host, { names: hostNames, port }))
      return sendJson(response, 403, {
        message: `Unknown host "${request.headers.host ?? ''}": the local Supabase API answers at http://127.0.0.1:${port} (or localhost) only`,
      })
    // Another site's page (naming 127.0.0.1 itself) could use the demo keys: only this machine's pages may.
    const origin = request.headers.origin
    if (!isLoopbackOrigin(origin))
      return sendJson(response, 403, {
        message: `Origin "${origin}" not allowed: the local Supabase answers pages of this machine only (http://localhost or 127.0.0.1, any port)`,
      })
    // Routing reads the path only: the base stands for this server whatever Host the client named.
    const url = new URL(request.url ?? '/', `http://${host}`)
    const method = request.method ?? 'GET'
    if (method === 'OPTIONS') return send(response, 204, null, cors)
    // Not a hosted endpoint: which twin answers on this port, with its data folder and process, so that
    // a start command can tell its own running twin from another checkout's. For Node clients on this
    // machine: no API key, and no CORS headers, so no page reads a local path or a pid from it.
    if (url.pathname === '/_twin' && method === 'GET')
      return sendJson(response, 200, twin, { 'Cache-Control': 'no-store' })
    if (url.pathname === '/auth/v1/health' || url.pathname === '/') {
      return sendJson(
        response,
        200,
        { name: 'GoTrue', version: 'local', description: 'Local Supabase-compatible server (PGlite)' },
        cors,
      )
    }
    const service = /^\/(rest|auth|functions)\/v1(\/|$)/.exec(url.pathname)?.[1]
    if (!service) return sendJson(response, 404, { message: 'no Route matched with those values' }, cors)

    // Gateway: an API key is required and decides the role when no user token is sent.
    const apikey = (request.headers.apikey as string | undefined) ?? url.searchParams.get('apikey') ?? undefined
    if (!apikey)
      return sendJson(
        response,
        401,
        { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' },
        cors,
      )
    const keyJwt = keyToJwt.get(apikey)
    if (!keyJwt)
      return sendJson(
        response,
        401,
        { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
        cors,
      )
    const presented = bearerToken(request)
    const token = presented && !presented.startsWith('sb_') ? presented : keyJwt

    let body = ''
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        body = await readBodyText(request)
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return sendJson(
            response,
            413,
            errorBody('PGRST413', 'Payload Too Large', 'The request body is larger than the server accepts'),
            { ...cors, Connection: 'close' },
          )
        }
        throw error
      }
    }

    let claims: Claims | null = null
    let jwtError: string | null = null
    try {
      claims = await jwt.verify(token)
    } catch (error) {
      jwtError = error instanceof JwtError ? error.message : 'invalid JWT'
    }

    if (service === 'auth') {
      return auth.handle!(request, response, url, body, {
        role: claims?.role ?? 'anon',
        address: clientAddress(request, trustedHops),
        headers: cors,
      })
    }
    if (!claims) {
      if (service === 'functions')
        return sendJson(response, 401, { code: 'UNAUTHORIZED_INVALID_JWT_FORMAT', message: 'Invalid JWT' }, cors)
      return sendJson(response, 401, errorBody('PGRST301', jwtError ?? 'JWT invalid'), {
        ...cors,
        'WWW-Authenticate': 'Bearer',
      })
    }
    if (service === 'functions') {
      const forwarded = forwardedFor(request)
      return handleFunction(functionsDir, request, response, url, body, cors, forwarded, platform, envDefaults)
    }
    return handleRest(
      {
        request,
        response,
        url,
        body,
        role: claims.role as ApiRole,
        claims,
        headers: headersForDatabase(request),
        extraHeaders: cors,
      },
      database,
    )
  }

  const timeouts = { ...DEFAULT_CONNECTION_TIMEOUTS, ...options.connectionTimeouts }
  // The server listens before it is whole (Vault's secrets, pg_net's worker and the auth API need the
  // URL it gets): requests wait for the rest, or a message stored meanwhile would find no Vault secret
  // and not be announced.
  let markStarted = () => {}
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  const server = createServer(httpServerLimits(timeouts), (request, response) => {
    started
      .then(() => route(request, response))
      .catch((error: unknown) => {
        log({
          event: 'server.error',
          method: request.method,
          path: request.url,
          error: error instanceof Error ? error.message : String(error),
        })
        send(response, 500, JSON.stringify(errorBody('XX000', 'Internal server error')), corsHeaders(request))
      })
  })
  server.timeout = silentSocketMs(timeouts)
  // Node's headers limit starts with the first byte: until then a connection gets that limit as its
  // socket timeout (on which Node destroys it), then the ordinary one.
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(timeouts.headersMs)
    socket.once('data', () => socket.setTimeout(server.timeout))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 54321, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 54321)
  const url = `http://${host}:${port}`
  platform = { ...platform, SUPABASE_URL: url }
  auth.handle = createAuthApi(database, {
    issuer: `${url}/auth/v1`,
    jwt,
    throttle: createLoginThrottle({ ...DEFAULT_THROTTLE, ...options.loginThrottle }),
    hasher,
    refreshReuseIntervalSeconds: options.refreshReuseIntervalSeconds ?? 10,
    log,
    recovery: {
      config: readAuthConfig(options.supabaseDir),
      // Its own counters: 5 requests per address and account in 15 minutes, 20 per address.
      throttle: createLoginThrottle({ ...DEFAULT_THROTTLE, maxPerEmail: 20 }),
      // The auth emails go where the functions' do (the mail viewer offline), as Inbucket gets both.
      smtpUrl: () => process.env.SMTP_URL || envDefaults.SMTP_URL,
    },
  })
  /** What runs beside the API once its URL is known; the server is closed when it cannot start. */
  async function startBeside() {
    // Vault's secrets a cron job reads to call a function (Supabase's documented pattern): this server's
    // URL and service key, stored before the jobs first run. pg_net's worker performs what they queue.
    await storeVaultSecrets(database, { project_url: url, service_role_key: serviceRoleKey })
    const net = startNetWorker({ database, log, pollMs: options.netPollMs })
    // pg_cron's jobs (cron-runner.ts): run once now (a job only queues its call to a function).
    const cron = await startCronRunner({ database, log })
    const postgres =
      options.dbPort === undefined
        ? null
        : await startPostgresSocket({ hold: database.hold, host, port: options.dbPort, log })
    return { net, cron, postgres }
  }
  const { net, cron, postgres } = await startBeside().catch((error: unknown) => {
    server.closeAllConnections()
    server.close()
    throw error
  })
  twin.dbPort = postgres?.port ?? null
  markStarted()

  async function close() {
    await postgres?.close()
    await cron.stop()
    await net.stop()
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
    await hasher.close()
    await database.close()
  }

  return { url, port, dbUrl: postgres?.url ?? null, anonKey, serviceRoleKey, database, net, close }
}

export type LocalSupabase = Awaited<ReturnType<typeof startLocalSupabase>>
