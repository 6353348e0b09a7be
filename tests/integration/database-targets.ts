import { PGlite } from '@electric-sql/pglite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BOOTSTRAP_SQL, listMigrations, migrationsDir } from '@plume/twins/supabase/migrations'

/**
 * The databases the policy tests run on: PGlite always, and a real PostgreSQL (15 in CI, as hosted
 * Supabase) when TEST_DATABASE_URL points at a server whose user may create databases. Each target
 * gets a fresh database with the platform bootstrap and every migration applied, as `supabase db push`
 * would on a project.
 */
export type Sql = {
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>
  close: () => Promise<void>
}

/** `stopBefore`: leave the migrations from that version on for `migrateRest` (tests of a migration's data step). */
export type OpenOptions = { stopBefore?: string }
export type Target = {
  name: string
  open: (options?: OpenOptions) => Promise<Sql & { migrateRest: () => Promise<void> }>
}

async function applyAll(run: (sql: string) => Promise<unknown>, { stopBefore }: OpenOptions = {}) {
  await run(readFileSync(BOOTSTRAP_SQL, 'utf8'))
  const migrations = listMigrations(migrationsDir(join(process.cwd(), 'supabase')))
  const cut =
    stopBefore === undefined
      ? migrations.length
      : migrations.filter((migration) => migration.version < stopBefore).length
  for (const migration of migrations.slice(0, cut)) await run(readFileSync(migration.file, 'utf8'))
  return async () => {
    for (const migration of migrations.slice(cut)) await run(readFileSync(migration.file, 'utf8'))
  }
}

const pglite: Target = {
  name: 'PGlite',
  open: async (options) => {
    const db = await PGlite.create()
    const migrateRest = await applyAll((sql) => db.exec(sql), options)
    return {
      query: async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows,
      close: () => db.close(),
      migrateRest,
    }
  },
}

function postgres(url: string): Target {
  return {
    name: 'PostgreSQL',
    open: async (options) => {
      const { default: pg } = await import('pg')
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      const database = `policy_test_${process.pid}_${Date.now()}`
      // Hosted Supabase databases are UTF-8, whatever this server's default encoding.
      await admin.query(
        `create database ${database} with template template0 encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8'`,
      )
      const target = new URL(url)
      target.pathname = `/${database}`
      const client = new pg.Client({ connectionString: target.href })
      await client.connect()
      const migrateRest = await applyAll((sql) => client.query(sql), options)
      return {
        migrateRest,
        query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
        close: async () => {
          await client.end()
          await admin.query(`drop database if exists ${database}`)
          await admin.end()
        },
      }
    },
  }
}

export const targets: Target[] = [
  pglite,
  ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : []),
]

export type Role = 'anon' | 'authenticated' | 'service_role'

/** Runs statements in one transaction as PostgREST would for a request with this JWT and headers. */
export async function asRole<T>(
  sql: Sql,
  role: Role,
  claims: Record<string, unknown>,
  headers: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  await sql.query('begin')
  try {
    await sql.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.headers', $3, true)`,
      [role, JSON.stringify({ ...claims, role }), JSON.stringify(headers)],
    )
    const result = await work()
    await sql.query('commit')
    return result
  } catch (error) {
    await sql.query('rollback')
    throw error
  }
}

/** Two users straight in auth.users, the first with the inbox's `admin` role, the second with none. */
export async function addAdminAndMember(sql: Sql, adminId: string, memberId: string): Promise<void> {
  for (const id of [adminId, memberId])
    await sql.query(`insert into auth.users (id, email) values ($1, $2)`, [id, `${id}@example.fr`])
  await sql.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [adminId])
}
