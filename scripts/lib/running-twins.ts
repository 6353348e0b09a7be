import { siteVariables, supabaseTwinUrl, twinOnPort, twinsFor } from './start-twins.ts'

/**
 * What `npm start -- --print-env` prints (with the database's URL) and `npm run serve` hands its server: the variables of the twins
 * this environment needs (twinsFor) that run now (another `npm start`'s), found on their ports and
 * started by nothing here; `missing` names the others, with the variable that says where they are
 * looked for; `needed`, how many the environment needs (none when it names hosted services).
 */
export async function runningTwinVariables(env: Record<string, string | undefined> = process.env) {
  const { contentLake, supabase } = twinsFor(env)
  const runs = async (twin: string, port?: number) => port !== undefined && (await twinOnPort(port))?.twin === twin
  const [lake, base] = await Promise.all([runs('content-lake', contentLake?.port), runs('supabase', supabase?.port)])
  const missing = [
    ...(contentLake && !lake ? [`the local Content Lake (port ${contentLake.port}, CONTENT_LAKE_PORT)`] : []),
    ...(supabase && !base ? [`the local Supabase (port ${supabase.port}, NEXT_PUBLIC_SUPABASE_URL)`] : []),
  ]
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
