// `npm run bench:db-port`: what a psql session on the local Supabase's database port costs the site's
// requests (twins/supabase/postgres-socket.ts: PGlite has one session, which they take in turn). Times a
// REST read (the inbox's count, as the service role) 200 times alone, then while a Postgres client runs
// queries back to back, then once while that client leaves a transaction open (the idle limit ends it).
import { join } from 'node:path'
import pg from 'pg'
import { startLocalSupabase } from '@plume/twins/supabase'
import { LOCAL_SERVICE_ROLE_KEY } from '@plume/twins/defaults'
import { percentile } from './bench-kit.ts'

const RUNS = 200
const supabase = await startLocalSupabase({
  supabaseDir: join(process.cwd(), 'supabase'),
  port: 0,
  dbPort: 0,
  log: () => {},
})
const read = async () => {
  const started = performance.now()
  const response = await fetch(`${supabase.url}/rest/v1/contact_submissions?select=id&limit=1`, {
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
  })
  await response.arrayBuffer()
  return performance.now() - started
}
async function timeReads(label: string) {
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) times.push(await read())
  console.log(
    `${label.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms  max ${Math.max(
      ...times,
    )
      .toFixed(1)
      .padStart(7)} ms`,
  )
}

try {
  await timeReads('REST read, nothing else')
  const client = new pg.Client({ connectionString: supabase.dbUrl! })
  client.on('error', () => {})
  await client.connect()
  let busy = true
  let statements = 0
  const loop = (async () => {
    while (busy) {
      await client.query('select count(*) from public.contact_submissions')
      statements++
    }
  })()
  await timeReads('REST read, psql running statements back to back')
  busy = false
  await loop
  console.log(`  (the client ran ${statements} statements meanwhile)`)
  await client.query('begin')
  const waited = await read()
  console.log(`${'REST read, psql leaving a transaction open'.padEnd(52)} answered after ${waited.toFixed(0)} ms`)
  await client.end().catch(() => {})
} finally {
  await supabase.close()
}
