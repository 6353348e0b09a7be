// `npm run messages:purge`: runs the retention purge now (public.purge_expired_contact_submissions,
// migration contact_retention), through the configured Supabase with the service-role key: the local
// twin by default, a hosted project when NEXT_PUBLIC_SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY name
// one. Both already run it daily (pg_cron, or the twin's own cron at start and daily); this is for an
// operator who wants it done now. It starts nothing: a twin that is not running is said so.
import { createClient } from '@supabase/supabase-js'
import { parseArgs } from 'node:util'
import { configuredSupabase } from './lib/start-twins.ts'

const { url, local, serviceRoleKey: key, refusal } = await configuredSupabase()
const USAGE = `Usage: npm run messages:purge

Deletes every message of each address whose most recent message is older than the retention period
(private.settings contact_retention_period, 3 years by default, as the privacy policy says), and
prints how many messages of how many addresses went. The database records each run without personal
data (private.contact_purge_runs).
Target: NEXT_PUBLIC_SUPABASE_URL (default: the local Supabase twin, which must be running; now ${url}),
with SUPABASE_SERVICE_ROLE_KEY (required for a hosted project).`

const { values } = parseArgs({ options: { help: { type: 'boolean' } } })
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}

// The local twin this folder's `npm start` runs, never another folder's on the same port.
if (refusal) {
  console.error(refusal)
  process.exit(1)
}

if (!key) {
  console.error(`SUPABASE_SERVICE_ROLE_KEY is required to purge messages on ${url} (Project Settings → API keys).`)
  process.exit(2)
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

const client = createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false } })
const { data, error } = await client.rpc('purge_expired_contact_submissions')
if (error) {
  if (/fetch failed/.test(error.message)) {
    console.error(
      local
        ? `Cannot reach the local Supabase twin at ${url}, and this command starts nothing. Start it with ` +
            '`npm start` (or `npm run supabase:local`): it then runs the purge itself, at start and daily.'
        : `Cannot reach ${url}. Check NEXT_PUBLIC_SUPABASE_URL.`,
    )
  } else {
    console.error(`The purge failed on ${url}: ${error.message}${error.code ? ` (${error.code})` : ''}`)
  }
  process.exit(1)
}
const result = data as { messages_deleted: number; addresses_deleted: number; retention: string }
console.log(
  `Purged on ${url}: ${plural(result.messages_deleted, 'message', 'messages')} of ` +
    `${plural(result.addresses_deleted, 'address', 'addresses')} not heard from in ${result.retention} deleted.`,
)
