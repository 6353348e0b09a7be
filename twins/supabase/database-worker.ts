import { PGlite, type QueryOptions } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { workerData } from 'node:worker_threads'
import { BOOTSTRAP_SQL, listMigrations } from './migrations.ts'
import { serveRequests } from './worker-rpc.ts'

/*
 * The database engine's thread (see database.ts): PGlite runs queries synchronously inside
 * WebAssembly, so on the server's thread one long statement would freeze everything, and nothing
 * could stop it. Here it runs apart, and the server can end this thread when a statement overruns.
 */

export type DatabaseRequest =
  | { op: 'exec'; sql: string }
  | { op: 'query'; sql: string; params: unknown[] }
  /** A Postgres wire-protocol message from a client of the database port (postgres-socket.ts). */
  | { op: 'protocol'; message: Uint8Array }
  | { op: 'close' }
export type StatementResult = { rows: Record<string, unknown>[]; affectedRows?: number }
export type DatabaseResponse = StatementResult | StatementResult[] | Uint8Array | null
export type EngineInfo = {
  columns: { table_name: string; column_name: string; type: string }[]
  /** statement_timeout (ms) set on the API roles (ALTER ROLE … SET), as PostgREST reads them. */
  statementTimeouts: Record<string, number>
}

/** What the engine is started with: its data folder and the project's migrations. */
export type EngineData = { dataDir: string; migrationsDir: string }

const API_ROLES = ['anon', 'authenticated', 'service_role', 'authenticator']

/*
 * The platform's bootstrap runs once per data folder and version of it: a file beside Postgres' own
 * (which Postgres ignores) names the version the folder holds. Run again on every start, it cost each
 * start a fifth of its time rewriting the same functions and grants.
 */
async function bootstrap(db: PGlite, dataDir: string) {
  const sql = readFileSync(BOOTSTRAP_SQL, 'utf8')
  const digest = createHash('sha256').update(sql).digest('hex')
  const marker = join(dataDir, 'twin-bootstrap.sha256')
  if (existsSync(marker) && readFileSync(marker, 'utf8') === digest) return () => {}
  await db.exec(sql)
  // Written once the migrations are in too: a start that fails half-way runs it again next time.
  return () => writeFileSync(marker, digest)
}

async function migrate(db: PGlite, dataDir: string, migrationsDir: string) {
  const bootstrapped = await bootstrap(db, dataDir)
  const applied = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
      (row) => row.version,
    ),
  )
  for (const migration of listMigrations(migrationsDir)) {
    if (applied.has(migration.version)) continue
    const sql = readFileSync(migration.file, 'utf8')
    await db.transaction(async (tx) => {
      await tx.exec(sql)
      await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ])
    })
  }
  bootstrapped()
}

/** Each role's statement_timeout in milliseconds, parsed by Postgres itself ('3s', '1min', '500'…). */
async function roleStatementTimeouts(db: PGlite): Promise<Record<string, number>> {
  const { rows } = await db.query<{ rolname: string; value: string }>(
    `select r.rolname, substr(setting, length('statement_timeout=') + 1) as value
       from pg_db_role_setting s join pg_roles r on r.oid = s.setrole, unnest(s.setconfig) setting
      where s.setdatabase = 0 and setting like 'statement_timeout=%' and r.rolname = any($1)`,
    [API_ROLES],
  )
  const timeouts: Record<string, number> = {}
  for (const row of rows) {
    timeouts[row.rolname] = await db.transaction(async (tx) => {
      await tx.query(`select set_config('statement_timeout', $1, true)`, [row.value])
      return Number(
        (await tx.query<{ setting: string }>(`select setting from pg_settings where name = 'statement_timeout'`))
          .rows[0].setting,
      )
    })
  }
  return timeouts
}

await serveRequests<DatabaseRequest, DatabaseResponse, EngineInfo>(async (emit) => {
  const { dataDir, migrationsDir } = workerData as EngineData
  // The warnings a statement raises (RAISE WARNING), in the server's log as in Supabase's Postgres logs:
  // e.g. a message stored whose notification could not be asked.
  const onNotice: QueryOptions['onNotice'] = (notice) => {
    if (notice.severity === 'WARNING') emit({ event: 'database.warning', message: notice.message })
  }
  const db = await PGlite.create({ dataDir })
  await migrate(db, dataDir, migrationsDir)
  const columns = (
    await db.query<EngineInfo['columns'][number]>(
      `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
    )
  ).rows
  return {
    info: { columns, statementTimeouts: await roleStatementTimeouts(db) },
    handle: async (request) => {
      if (request.op === 'exec')
        return (await db.exec(request.sql, { onNotice })).map((result) => ({
          rows: result.rows as Record<string, unknown>[],
          affectedRows: result.affectedRows,
        }))
      if (request.op === 'protocol') return await db.execProtocolRaw(request.message)
      if (request.op === 'query') {
        const result = await db.query<Record<string, unknown>>(request.sql, request.params, { onNotice })
        return { rows: result.rows, affectedRows: result.affectedRows }
      }
      await db.close()
      return null
    },
  }
})
