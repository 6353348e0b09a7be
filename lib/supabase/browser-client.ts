import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { LOCAL_ANON_KEY, LOCAL_SUPABASE_URL } from '@/local/supabase/defaults'

/**
 * The browser's Supabase client (supabase-js defaults: session in localStorage, auto refresh).
 * Without configuration it targets the local Supabase-compatible server started by `npm start`.
 */
export const supabaseUrl = process.env.NEXT_PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_URL
export const supabaseAnonKey = process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY || LOCAL_ANON_KEY

let client: SupabaseClient | undefined

export function getSupabaseBrowserClient(): SupabaseClient {
  client ??= createClient(supabaseUrl, supabaseAnonKey)
  return client
}
