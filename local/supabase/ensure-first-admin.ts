import { createAdmin } from '../../lib/admin/create-admin.ts'
import { generateStrongPassword, passwordWeakness } from '../../lib/admin/password-policy.ts'
import type { LocalSupabase } from './create-local-supabase.ts'

const DEFAULT_ADMIN_EMAIL = 'admin@localhost.test'

/**
 * First run of the local backend: if nobody has the admin role yet, create an admin from
 * ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated password shown once (it is stored only as a
 * bcrypt hash). Goes through the HTTP API with the service-role key, like `npm run admin:create`.
 */
export async function ensureFirstAdmin(server: LocalSupabase, siteUrl: string) {
  const { rows } = await server.database.db.query<{ n: number }>(`select count(*)::int as n from public.user_roles where role = 'admin'`)
  if (rows[0].n > 0) return
  const email = process.env.ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL
  const given = process.env.ADMIN_PASSWORD
  if (given) {
    const weakness = passwordWeakness(given, email)
    if (weakness) {
      console.error(`ADMIN_PASSWORD refused: ${weakness}. No admin was created; fix it and restart.`)
      return
    }
  }
  const password = given || generateStrongPassword()
  await createAdmin({ url: server.url, serviceRoleKey: server.serviceRoleKey, email, password })
  const inbox = `${siteUrl.replace(/\/$/, '')}/admin-panel-2024`
  const lines = [
    'First run: an administrator account was created for the inbox.',
    `  Inbox:    ${inbox}`,
    `  Email:    ${email}`,
    given ? '  Password: the one in ADMIN_PASSWORD' : `  Password: ${password}    (shown only this once; store it now)`,
    'Create more with: npm run admin:create -- --email someone@example.com',
  ]
  const width = Math.max(...lines.map((line) => line.length))
  console.log(`\n${'─'.repeat(width)}\n${lines.join('\n')}\n${'─'.repeat(width)}\n`)
}
