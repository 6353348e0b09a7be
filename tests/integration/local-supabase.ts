import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { join } from 'node:path'
import { startLocalSupabase, type LocalSupabase, type LocalSupabaseOptions } from '@plume/twins/supabase'
import { contactSettingsSql, type ContactSettings } from '../../scripts/lib/settings-sql.ts'

/** An in-memory local Supabase with this project's migrations and functions on a free loopback port,
 *  with its log captured instead of printed and pg_net's calls made only when a test drains them;
 *  the contact settings are stored after the migrations
 *  (trusted proxy hops apply to the database's rate limit and the twin's sign-in throttle alike). */
export async function startTestSupabase({
  contactRateLimit,
  ...options
}: Omit<LocalSupabaseOptions, 'supabaseDir' | 'startupSql'> & ContactSettings = {}) {
  const logs: Record<string, unknown>[] = []
  const startupSql = contactSettingsSql({ contactRateLimit, trustedProxyHops: options.trustedProxyHops })
  const server: LocalSupabase = await startLocalSupabase({
    supabaseDir: join(process.cwd(), 'supabase'),
    port: 0,
    log: (entry) => logs.push(entry),
    startupSql,
    // The database's calls (pg_net: the contact notification's webhook, the schedule's retry) are made
    // when a test drains the queue (server.net.drain()), never behind its back.
    netPollMs: null,
    ...options,
  })
  const client = (key: string, headers: Record<string, string> = {}): SupabaseClient =>
    createClient(server.url, key, { auth: { persistSession: false, autoRefreshToken: false }, global: { headers } })
  return {
    server,
    logs,
    anon: (headers?: Record<string, string>) => client(server.anonKey, headers),
    service: () => client(server.serviceRoleKey),
    /** Rows as the superuser sees them (bypasses RLS): what is really stored. */
    stored: async (sql = 'select * from public.contact_submissions order by created_at') =>
      (await server.database.db.query<Record<string, unknown>>(sql)).rows,
    close: () => server.close(),
  }
}

export type TestSupabase = Awaited<ReturnType<typeof startTestSupabase>>

export const VALID_ROW = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '+33 6 12 34 56 78',
  message: 'Bonjour, je voudrais un devis pour LinkedIn.',
  package: 'Growth',
}

let counter = 0
/**
 * A fresh client address per call, sent as X-Forwarded-For: with trustedProxyHops 2 the server
 * trusts one proxy in front of it, so each address gets its own rate-limit bucket.
 */
export function clientAddress(): string {
  counter++
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`
}

/** Creates a user, optionally an admin, and returns a signed-in client. */
export async function signedInUser(
  test: TestSupabase,
  email: string,
  { admin = false, password = 'Correct-Horse-42!' } = {},
) {
  const created = await test.service().auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw created.error
  if (admin) {
    const grant = await test.service().from('user_roles').insert({ user_id: created.data.user.id, role: 'admin' })
    if (grant.error) throw grant.error
  }
  const client = test.anon()
  const signIn = await client.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  return { client, userId: created.data.user.id, session: signIn.data.session! }
}
