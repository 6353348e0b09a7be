import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { passwordWeakness } from '../../lib/admin/password-policy.ts'

/*
 * Creates a confirmed user and grants the admin role through the service-role key: the same calls
 * work against the local server and a hosted project. Used by `npm run admin:create` and by the local
 * server's first run. Relative imports only, so Node runs it without a bundler.
 */

/** `created`: a new account; `granted`: the admin role is new to it (false when it was an admin already). */
export type CreateAdminResult = { userId: string; created: boolean; granted: boolean }

export class AdminCreationError extends Error {}

export async function createAdmin({
  url,
  serviceRoleKey,
  email,
  password,
  resetPassword = false,
}: {
  url: string
  serviceRoleKey: string
  email: string
  password: string
  /** An existing account gets `password` (else its password stays). */
  resetPassword?: boolean
}): Promise<CreateAdminResult> {
  const weakness = passwordWeakness(password, email)
  if (weakness) throw new AdminCreationError(`Password refused: ${weakness}.`)
  const client = createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } })
  const normalizedEmail = email.trim().toLowerCase()
  let userId: string
  let created = true
  const { data, error } = await client.auth.admin.createUser({ email: normalizedEmail, password, email_confirm: true })
  if (error) {
    if (error.code !== 'email_exists') throw new AdminCreationError(`Could not create the user: ${error.message}`)
    // Already a user: grant the role to the existing account rather than fail (its password stays).
    const existing = await findUserByEmail(client, normalizedEmail)
    if (!existing) throw new AdminCreationError(`Could not find the existing user ${normalizedEmail}`)
    userId = existing
    created = false
    if (resetPassword) {
      const reset = await client.auth.admin.updateUserById(userId, { password })
      if (reset.error) throw new AdminCreationError(`Could not set the new password: ${reset.error.message}`)
    }
  } else {
    userId = data.user.id
  }
  // ON CONFLICT DO NOTHING: the rows returned are the ones inserted, none when it was an admin already.
  const grant = await client
    .from('user_roles')
    .upsert({ user_id: userId, role: 'admin' }, { onConflict: 'user_id,role', ignoreDuplicates: true })
    .select('user_id')
  if (grant.error) throw new AdminCreationError(`Could not grant the admin role: ${grant.error.message}`)
  return { userId, created, granted: grant.data.length > 0 }
}

async function findUserByEmail(client: SupabaseClient, email: string): Promise<string | null> {
  for (let page = 1; page <= 100; page++) {
    const { data, error } = await client.auth.admin.listUsers({ page, perPage: 1000 })
    if (error) throw new AdminCreationError(`Could not list users: ${error.message}`)
    const match = data.users.find((user) => user.email?.toLowerCase() === email)
    if (match) return match.id
    if (data.users.length < 1000) return null
  }
  return null
}
