// Command line of the local Supabase-compatible server: `node twins/supabase/supabase-server.ts --help`.
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startLocalSupabase } from './start-local-supabase.ts'

const HELP = `Local Supabase-compatible server (PGlite)

Serves the parts of Supabase's HTTP API this project uses — /rest/v1 (PostgREST), /auth/v1 (GoTrue)
and /functions/v1 (Edge Functions) — over an embedded PostgreSQL (PGlite) that runs
twins/supabase/bootstrap.sql and then the project's supabase/migrations/*.sql. It uses the Supabase CLI's local JWT
secret and demo anon/service-role keys, so the app's default variables work with it or with
\`supabase start\` alike. Requests run under the role their JWT names, so RLS policies apply.

Usage: node twins/supabase/supabase-server.ts [options]   (npm run supabase:local -- [options])

Options:
  --host <address>            listen address (default 127.0.0.1; keep it on loopback)
  --port <n>                  port (default 54321; 0 picks a free one)
  --data-dir <folder>         where the database lives (default .data/supabase)
  --memory                    a throwaway database, deleted when the server stops (tests, benchmarks)
  --sql <statement>           SQL run after the migrations at every start (repeatable; e.g. a project setting for tests)
  --trusted-proxy-hops <n>    proxies in front of this server whose X-Forwarded-For entries the sign-in
                              throttle counts (default 1 = the address this server sees)
  --supabase-dir <folder>     the project's Supabase folder: migrations/ and functions/ (default ./supabase)
  --db-port <n|off>           the database's Postgres port, for psql and any Postgres client (default
                              54322 as \`supabase start\`; 0 picks a free one; off: none). User postgres,
                              password postgres, database postgres
  --smtp-url <url>            SMTP_URL of the functions when the environment does not set it (npm start
                              passes the local mail viewer's, smtp://127.0.0.1:54325)
  --help                      show this help

Environment (read by the project's functions, e.g. send-contact-email): OUTBOX_DIR, SMTP_URL,
CONTACT_NOTIFICATION_TO, CONTACT_NOTIFICATION_FROM.

The jobs the migrations schedule with cron.schedule (a subset of pg_cron) run once at start, then on
their schedule.
`

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '54321' },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean', default: false },
    sql: { type: 'string', multiple: true },
    'trusted-proxy-hops': { type: 'string' },
    'supabase-dir': { type: 'string', default: join(process.cwd(), 'supabase') },
    'smtp-url': { type: 'string' },
    'db-port': { type: 'string', default: '54322' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})

if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text)) {
    console.error(`--${name} expects a non-negative integer, got "${text}"`)
    process.exit(2)
  }
  return Number(text)
}

const port = integer('port', values.port)!
const dbPort = values['db-port'] === 'off' ? undefined : integer('db-port', values['db-port'])
const dataDir = values.memory ? undefined : (values['data-dir'] ?? join(process.cwd(), '.data', 'supabase'))

try {
  const server = await startLocalSupabase({
    supabaseDir: values['supabase-dir']!,
    host: values.host,
    port,
    dataDir,
    startupSql: values.sql,
    trustedProxyHops: integer('trusted-proxy-hops', values['trusted-proxy-hops']),
    functionEnvDefaults: values['smtp-url'] ? { SMTP_URL: values['smtp-url'] } : undefined,
    dbPort,
  })
  console.log(`Local Supabase listening on ${server.url} (${dataDir ? `data in ${dataDir}` : 'throwaway database'})`)
  if (server.dbUrl) console.log(`  its database, for psql: ${server.dbUrl}`)
  const stop = () => {
    server.close().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  const code = (error as { code?: string }).code
  if (code === 'EADDRINUSE' && (error as { port?: number }).port === dbPort) {
    console.error(
      `Port ${dbPort} on ${values.host} (the database's, for psql) is already in use. Stop what runs there (perhaps \`supabase start\`), or pick another with --db-port (off: none).`,
    )
  } else if (code === 'EADDRINUSE') {
    console.error(
      `Port ${port} on ${values.host} is already in use. Stop what runs there (perhaps \`supabase start\` or another copy of this server), or pick another port with --port and set NEXT_PUBLIC_SUPABASE_URL to match.`,
    )
  } else {
    console.error('The local Supabase server could not start:', error)
  }
  process.exit(1)
}
