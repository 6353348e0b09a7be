import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { backends } from '@/lib/site-backends'

/**
 * The browser's Supabase client (supabase-js defaults: session in localStorage, auto refresh), for the
 * project NEXT_PUBLIC_SUPABASE_URL names (lib/backends.ts): hosted, or the local one `npm start` sets.
 */
export const supabaseUrl = backends.supabase.url
export const supabaseAnonKey = backends.supabase.anonKey

/**
 * The longest any request to Supabase may take (the form's insert, the inbox's reads, signing in):
 * supabase-js sets none, and a Supabase that hangs left the form's button spinning for ever. Past it
 * the request fails as a network error does, and the form or the inbox says so.
 */
export const SUPABASE_DEADLINE_MS = 10_000

/** fetch with SUPABASE_DEADLINE_MS, and the caller's own signal (`.abortSignal()`) still honoured. */
export const fetchWithDeadline: typeof fetch = (input, init = {}) => {
  const deadline = AbortSignal.timeout(SUPABASE_DEADLINE_MS)
  // AbortSignal.any is newer than some browsers Next supports (Safari before 17.4): there, a caller's
  // own signal wins, as before.
  const signal = !init.signal ? deadline : 'any' in AbortSignal ? AbortSignal.any([init.signal, deadline]) : init.signal
  return fetch(input, { ...init, signal })
}

let client: SupabaseClient | undefined

export function getSupabaseBrowserClient(): SupabaseClient {
  client ??= createClient(supabaseUrl, supabaseAnonKey, { global: { fetch: fetchWithDeadline } })
  return client
}
