import { PGlite, type Transaction } from '@electric-sql/pglite'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ApiRole } from './jwt.ts'
import { quoteLiteral as literal } from './postgrest-query.ts'

const here = import.meta.dirname
export const MIGRATIONS_DIR = join(here, '..', 'migrations')
export const BOOTSTRAP_SQL = join(here, 'bootstrap.sql')

export type ColumnInfo = { name: string; type: string }
/** PostgREST's "schema cache": the public tables and their columns. */
export type SchemaCache = Map<string, Map<string, ColumnInfo>>

export type RequestContext = {
  role: ApiRole
  claims: Record<string, unknown>
  method: string
  path: string
  headers: Record<string, string>
  readOnly: boolean
}

/** Migration files in the order the Supabase CLI applies them (by their timestamp prefix). */
export function listMigrations(dir = MIGRATIONS_DIR): { version: string; name: string; file: string }[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [, version, name] = /^(\d+)_(.+)\.sql$/.exec(file)!
      return { version, name, file: join(dir, file) }
    })
}

export async function openDatabase({ dataDir }: { dataDir?: string }) {
  // PGlite creates only the last folder of the path; on a fresh clone `.data/` does not exist yet.
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const db = dataDir ? await PGlite.create({ dataDir }) : await PGlite.create()
  await db.exec(readFileSync(BOOTSTRAP_SQL, 'utf8'))
  const applied = new Set((await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((row) => row.version))
  for (const migration of listMigrations()) {
    if (applied.has(migration.version)) continue
    const sql = readFileSync(migration.file, 'utf8')
    await db.transaction(async (tx) => {
      await tx.exec(sql)
      await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name])
    })
  }
  const schema = await loadSchemaCache(db)

  /**
   * Runs one API request in its own transaction under the role its JWT names, with the claims and
   * headers PostgREST would set, so RLS decides exactly as on Supabase; the superuser never runs
   * request SQL. Settings and statements go to PGlite as one simple-query string, which Postgres runs
   * as one implicit transaction (all or nothing) in one round trip; PGlite serialises it with every
   * other transaction. Values must already be literals (SqlBuilder.param). Returns each statement's
   * result, the settings' excluded.
   */
  async function asRequest(context: RequestContext, statements: string[]) {
    const settings = [
      ...(context.readOnly ? [`set_config('transaction_read_only', 'on', true)`] : []),
      `set_config('search_path', 'public, extensions', true)`,
      `set_config('role', ${literal(context.role)}, true)`,
      `set_config('request.jwt.claims', ${literal(JSON.stringify({ ...context.claims, role: context.role }))}, true)`,
      `set_config('request.method', ${literal(context.method)}, true)`,
      `set_config('request.path', ${literal(context.path)}, true)`,
      `set_config('request.headers', ${literal(JSON.stringify(context.headers))}, true)`,
      `set_config('request.cookies', '{}', true)`,
    ]
    const results = await db.exec(`select ${settings.join(', ')};\n${statements.join(';\n')}`)
    return results.slice(1)
  }

  /** Runs auth bookkeeping as GoTrue's own role, which owns the auth schema and nothing else. */
  async function asAuthAdmin<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      await tx.exec(`select set_config('role', 'supabase_auth_admin', true), set_config('search_path', 'auth', true)`)
      return work(tx)
    })
  }

  return { db, schema, asRequest, asAuthAdmin, close: () => db.close() }
}

export type Database = Awaited<ReturnType<typeof openDatabase>>

async function loadSchemaCache(db: PGlite): Promise<SchemaCache> {
  const { rows } = await db.query<{ table_name: string; column_name: string; type: string }>(
    `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
  )
  const cache: SchemaCache = new Map()
  for (const row of rows) {
    if (!cache.has(row.table_name)) cache.set(row.table_name, new Map())
    cache.get(row.table_name)!.set(row.column_name, { name: row.column_name, type: row.type })
  }
  return cache
}
