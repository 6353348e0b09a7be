import { connect } from 'node:net'
import { siteVariables, supabaseTwinUrl, twinOnPort, twinsFor } from './start-twins.ts'

/**
 * What `npm start -- --print-env` prints (with the database's URL) and `npm run serve` hands its server: the variables of the twins
 * this environment needs (twinsFor) that run now (another `npm start`'s), found on their ports and
 * started by nothing here; `missing` names the others, with the variable that says where they are
 * looked for, and `silent` those of them whose port takes connections but gives no answer (paused or
 * stuck); `needed`, how many the environment needs (none when it names hosted services).
 */
export async function runningTwinVariables(env: Record<string, string | undefined> = process.env) {
  const { contentLake, supabase } = twinsFor(env)
  const runs = async (twin: string, port?: number) => port !== undefined && (await twinOnPort(port))?.twin === twin
  const [lake, base] = await Promise.all([runs('content-lake', contentLake?.port), runs('supabase', supabase?.port)])
  const absent = [
    ...(contentLake && !lake
      ? [{ port: contentLake.port, what: 'the local Content Lake', variable: 'CONTENT_LAKE_PORT' }]
      : []),
    ...(supabase && !base
      ? [{ port: supabase.port, what: 'the local Supabase', variable: 'NEXT_PUBLIC_SUPABASE_URL' }]
      : []),
  ]
  // A port that takes connections but gives no answer holds a twin that is paused or stuck, not one
  // that is not running: `npm start` would not mend it.
  const held = await Promise.all(absent.map(({ port }) => acceptsConnections(port)))
  const named = ({ port, what, variable }: (typeof absent)[number]) => `${what} (port ${port}, ${variable})`
  const missing = absent.map(named)
  const silent = absent.filter((_, index) => held[index]).map(named)
  const variables = await siteVariables({
    contentLake: lake ? contentLake : undefined,
    supabase: base && supabase ? { url: supabaseTwinUrl(supabase) } : undefined,
  })
  // Not a variable the site reads: its database, for psql and migrations by hand (`supabase status`'s DB URL).
  const database = base && supabase ? await runningDatabaseUrl(supabase.port) : null
  return {
    variables,
    database,
    missing,
    silent,
    needed: Number(Boolean(contentLake)) + Number(Boolean(supabase)),
  }
}

/** The Postgres URL of the database of the Supabase twin running on `port` (null: none, or no Postgres port). */
export async function runningDatabaseUrl(port: number): Promise<string | null> {
  const identity = await twinOnPort(port)
  return identity?.twin === 'supabase' && identity.dbPort
    ? `postgresql://postgres:postgres@127.0.0.1:${identity.dbPort}/postgres`
    : null
}

/** Whether something listens on `port` of the loopback address (a connection is accepted within 1 s). */
function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', timeout: 1000 })
    const done = (accepted: boolean) => {
      socket.destroy()
      resolve(accepted)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(false))
    socket.once('error', () => done(false))
  })
}
