import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/*
 * The SQL that builds the local database: the platform bootstrap (what a Supabase project already
 * has), then the project's `<supabase folder>/migrations` in the order the Supabase CLI applies them.
 * Shared by the database worker and the tests that run the same SQL on PGlite and PostgreSQL.
 */

export const BOOTSTRAP_SQL = join(import.meta.dirname, 'bootstrap.sql')

/** The migrations folder of a Supabase project folder (the one `supabase init` creates). */
export const migrationsDir = (supabaseDir: string) => join(supabaseDir, 'migrations')

/** Migration files in the order the Supabase CLI applies them (by their timestamp prefix). */
export function listMigrations(dir: string): { version: string; name: string; file: string }[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [, version, name] = /^(\d+)_(.+)\.sql$/.exec(file)!
      return { version, name, file: join(dir, file) }
    })
}
