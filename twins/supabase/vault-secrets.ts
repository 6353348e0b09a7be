import type { Database } from './database.ts'

/**
 * Stores secrets in the twin's Vault (bootstrap.sql), creating or replacing each by name, as an
 * operator stores them once on a project with vault.create_secret. The twin stores its own URL and
 * service key at every start (the port may change), before any cron job reads them.
 */
export async function storeVaultSecrets(database: Pick<Database, 'db'>, secrets: Record<string, string>) {
  for (const [name, secret] of Object.entries(secrets)) {
    await database.db.query(
      `with replaced as (
         update vault.secrets set secret = $2, updated_at = now() where name = $1 returning id
       )
       select vault.create_secret($2, $1) where not exists (select 1 from replaced)`,
      [name, secret],
    )
  }
}
