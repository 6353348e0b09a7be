// `npm run admin:create -- --email someone@example.com [--password …] [--reset-password]`: creates an
// inbox admin, or gives an existing one a new password, through the service-role key, on the local server or a hosted project (see docs/supabase.md).
import { parseArgs } from 'node:util'
import { AdminCreationError, createAdmin } from './lib/create-admin.ts'
import { generateStrongPassword } from './lib/generate-password.ts'
import { configuredSupabase } from './lib/start-twins.ts'

const target = await configuredSupabase()
const USAGE = `Usage: npm run admin:create -- --email <address> [--password <password>] [--reset-password]

Creates a confirmed user and grants it the admin role of the inbox (/admin-panel-2024).
An existing account keeps its password, unless --reset-password: then it gets a new one.
Without --password (or ADMIN_PASSWORD), a strong password is generated and printed once.
A password must have 12+ characters with lowercase and uppercase letters and digits.
Target: NEXT_PUBLIC_SUPABASE_URL (default: the local Supabase twin, which must be running; now ${target.url}),
with SUPABASE_SERVICE_ROLE_KEY (required for a hosted project).`

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'reset-password': { type: 'boolean' },
    help: { type: 'boolean' },
  },
})
if (values.help || !values.email) {
  console.log(USAGE)
  process.exit(values.help ? 0 : 2)
}

const { url, local: isLocal, serviceRoleKey, refusal } = target
// The local twin this folder's `npm start` runs, never another folder's on the same port.
if (refusal) {
  console.error(refusal)
  process.exit(1)
}
if (!serviceRoleKey) {
  console.error(
    `SUPABASE_SERVICE_ROLE_KEY is required to create an admin on ${url} (Project Settings → API keys → service_role / secret).`,
  )
  process.exit(2)
}

const given = values.password ?? process.env.ADMIN_PASSWORD
const password = given ?? generateStrongPassword()
try {
  const reset = values['reset-password'] === true
  const { created, granted } = await createAdmin({
    url,
    serviceRoleKey,
    email: values.email,
    password,
    resetPassword: reset,
  })
  const unchanged = 'its password is unchanged; --reset-password sets a new one'
  console.log(
    created
      ? `Admin created: ${values.email.trim().toLowerCase()} on ${url}`
      : reset
        ? `${values.email} on ${url}: its password is now the new one (it is an admin).`
        : granted
          ? `${values.email} already had an account on ${url}: it is now an admin (${unchanged}).`
          : `${values.email} is already an admin on ${url}: nothing changed (${unchanged}).`,
  )
  if ((created || reset) && !given) console.log(`Password: ${password}    (shown only this once; store it now)`)
} catch (error) {
  if (error instanceof Error && /fetch failed/.test(error.message)) {
    console.error(
      `Cannot reach ${url}. ${isLocal ? 'Start the local server first: npm start (or npm run supabase:local).' : 'Check NEXT_PUBLIC_SUPABASE_URL.'}`,
    )
  } else {
    console.error(error instanceof AdminCreationError ? error.message : error)
  }
  process.exit(1)
}
