// Extracts the Studio schema and regenerates lib/sanity/sanity.types.ts from it and the GROQ queries.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'

// The extraction loads the Studio's configuration, which reads the services' variables (lib/backends.ts);
// the schema depends on none of them. Where the environment names no service, the addresses the local
// ones would have stand in (nothing is started or contacted; a container's build names both).
const named = ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SUPABASE_URL'].every((name) => process.env[name]?.trim())
const addresses = named ? {} : (await import('./lib/start-twins.ts')).plannedTwinAddresses()
const env = { ...process.env, ...addresses, SANITY_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NO_UPDATE_NOTIFIER: '1' }
const run = (args: string[]) => execFileSync('sanity', args, { stdio: ['ignore', 'inherit', 'inherit'], env })

// The CLI refuses to overwrite an earlier extraction.
rmSync('.sanity/schema.json', { force: true })
run(['schema', 'extract', '--path', '.sanity/schema.json', '--enforce-required-fields'])
run(['typegen', 'generate'])
