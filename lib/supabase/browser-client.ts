import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { backends } from '@/lib/backends'

/**
 * The browser's Supabase client (supabase-js defaults: session in localStorage, auto refresh).
 * Without configuration it targets the local Supabase twin started by `npm start` (lib/backends.ts).
 */
export const supabaseUrl = backends.supabase.url
export const supabaseAnonKey = backends.supabase.anonKey

let client: SupabaseClient | undefined

export function getSupabaseBrowserClient(): SupabaseClient {
  client ??= createClient(supabaseUrl, supabaseAnonKey)
  return client
}
