import { PGlite } from '@electric-sql/pglite'
import { readFileSync } from 'node:fs'
import { BOOTSTRAP_SQL, listMigrations } from '@/supabase/local/migrations'

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

export type Target = { name: string; open: () => Promise<Sql> }

async function applyAll(run: (sql: string) => Promise<unknown>) {
  await run(readFileSync(BOOTSTRAP_SQL, 'utf8'))
  for (const migration of listMigrations()) await run(readFileSync(migration.file, 'utf8'))
}

const pglite: Target = {
  name: 'PGlite',
  open: async () => {
    const db = await PGlite.create()
    await applyAll((sql) => db.exec(sql))
    return {
      query: async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows,
      close: () => db.close(),
    }
  },
}

function postgres(url: string): Target {
  return {
    name: 'PostgreSQL',
    open: async () => {
      const { default: pg } = await import('pg')
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      const database = `policy_test_${process.pid}_${Date.now()}`
      await admin.query(`create database ${database}`)
      const target = new URL(url)
      target.pathname = `/${database}`
      const client = new pg.Client({ connectionString: target.href })
      await client.connect()
      await applyAll((sql) => client.query(sql))
      return {
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

export const targets: Target[] = [pglite, ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : [])]
