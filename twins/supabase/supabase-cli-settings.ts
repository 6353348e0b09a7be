/**
 * The Supabase CLI's well-known local settings (twins/docs/supabase-wire.md §8): the local
 * server uses them so `supabase start` can be swapped in without changing a variable. Public demo
 * values, safe only on 127.0.0.1.
 */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321'
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'
