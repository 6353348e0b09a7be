import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { backends } from '@/lib/site-backends'
import { fetchWithDeadline } from './fetch-with-deadline'

/**
 * The browser's Supabase client (supabase-js defaults: session in localStorage, auto refresh), for the
 * project NEXT_PUBLIC_SUPABASE_URL names (lib/backends.ts): hosted, or the local one `npm start` sets.
 */
export const supabaseUrl = backends.supabase.url
export const supabaseAnonKey = backends.supabase.anonKey

let client: SupabaseClient | undefined

/** Where the browser keeps the session: supabase-js's own default name, written out for endSession. */
const sessionStorageKey = () => `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`

export function getSupabaseBrowserClient(): SupabaseClient {
  client ??= createClient(supabaseUrl, supabaseAnonKey, {
    global: { fetch: fetchWithDeadline },
    auth: { storageKey: sessionStorageKey() },
  })
  return client
}

/**
 * Signs out: Supabase revokes the session and this browser forgets it. When Supabase cannot be reached,
 * supabase-js keeps the session; it is forgotten here all the same, so that an administrator signing
 * out of a shared computer leaves no way into the inbox behind.
 */
export async function endSession(client: SupabaseClient): Promise<void> {
  const { error } = await client.auth.signOut()
  if (!error) return
  const key = sessionStorageKey()
  for (const stored of Object.keys(localStorage)) if (stored.startsWith(key)) localStorage.removeItem(stored)
}
