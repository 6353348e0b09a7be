import { createClient } from '@supabase/supabase-js'
import { createAdmin } from './create-admin.ts'
import { passwordWeakness } from '../../lib/admin/password-policy.ts'
import { generateStrongPassword } from './generate-password.ts'

const DEFAULT_ADMIN_EMAIL = 'admin@localhost.test'

export type FirstAdminOptions = {
  /** The Supabase API (the local twin) and its service-role key. */
  url: string
  serviceRoleKey: string
  /** Where the inbox is, for the message. */
  inboxUrl: string
  env?: Record<string, string | undefined>
}

/**
 * First run of the local Supabase twin (`npm start`): if nobody has the admin role yet, create an admin
 * from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated password shown once (it is stored only as a
 * bcrypt hash). Goes through the HTTP API with the service-role key, like `npm run admin:create`: the
 * twin knows nothing of the inbox, its roles or its password policy.
 */
export async function ensureFirstAdmin({ url, serviceRoleKey, inboxUrl, env = process.env }: FirstAdminOptions) {
  const client = createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } })
  const { count, error } = await client
    .from('user_roles')
    .select('user_id', { count: 'exact', head: true })
    .eq('role', 'admin')
  if (error) throw new Error(`Could not read the admin roles on ${url}: ${error.message}`)
  if ((count ?? 0) > 0) return
  const email = env.ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL
  const given = env.ADMIN_PASSWORD
  if (given) {
    const weakness = passwordWeakness(given, email)
    if (weakness) {
      console.error(`ADMIN_PASSWORD refused: ${weakness}. No admin was created; fix it and restart.`)
      return
    }
  }
  const password = given || generateStrongPassword()
  await createAdmin({ url, serviceRoleKey, email, password })
  const lines = [
    'First run: an administrator account was created for the inbox.',
    `  Inbox:    ${inboxUrl}`,
    `  Email:    ${email}`,
    given ? '  Password: the one in ADMIN_PASSWORD' : `  Password: ${password}    (shown only this once; store it now)`,
    'Create more with: npm run admin:create -- --email someone@example.com',
  ]
  const width = Math.max(...lines.map((line) => line.length))
  console.log(`\n${'─'.repeat(width)}\n${lines.join('\n')}\n${'─'.repeat(width)}\n`)
}
