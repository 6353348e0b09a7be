// `npm run bench:inbox-overview`: the inbox's overview (contact_inbox_overview, the migration
// 20261229100000) and the counts the inbox asks for on every load, over 100,000 messages in the local
// Supabase (PGlite): three years of them, a third answered, some archived, the rest waiting. Times each
// call as the inbox makes it (an administrator's token, through the REST API), 50 times after 5
// warm-ups; prints p50, p95 and the slowest against the goal (p95 ≤ 200 ms).
import { createClient } from '@supabase/supabase-js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdmin } from '../../scripts/lib/create-admin.ts'
import { fetchInboxPage } from '../../lib/admin/inbox-api.ts'
import { fetchInboxOverview } from '../../lib/admin/inbox-overview.ts'
import { beforeShutdown, exitAfterStopping, startProcess, stopAll } from '../../scripts/lib/supervisor.ts'
import { freePort, waitForHttp } from '@plume/twins/free-port'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '@plume/twins/defaults'
import { percentile } from './bench-kit.ts'

const MESSAGES = Number(process.env.MESSAGES ?? 100_000)
const RUNS = 50
// Rows per insert: the local API refuses bodies over 256 KiB (twins/supabase/gateway.ts).
const BATCH = 400
const GOAL_MS = 200
const ADMIN = { email: 'bench-admin@example.fr', password: 'Bench-Encre-Rivage-71!' }
const YEARS_MS = 3 * 365 * 24 * 3600_000
const dataDir = mkdtempSync(join(tmpdir(), 'bench-overview-'))
beforeShutdown(async () => {
  await stopAll()
  rmSync(dataDir, { recursive: true, force: true })
})

async function timed(label: string, call: () => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await call()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await call()
    times.push(performance.now() - started)
  }
  const p95 = percentile(times, 95)
  console.log(
    `${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(0).padStart(4)} ms  p95 ${p95.toFixed(0).padStart(4)} ms  ` +
      `max ${Math.max(...times)
        .toFixed(0)
        .padStart(4)} ms  ${p95 <= GOAL_MS ? 'within' : 'OVER'} the goal (${GOAL_MS} ms)`,
  )
  return p95
}

let exitCode = 1
try {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  startProcess(
    process.execPath,
    ['twins/supabase/supabase-server.ts', '--port', String(port), '--data-dir', dataDir, '--db-port', 'off'],
    {
      quiet: true,
    },
  )
  await waitForHttp(`${url}/auth/v1/health`)
  const service = createClient(url, LOCAL_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const packages = ['Starter', 'Growth', 'Advanced', 'Premium', 'Essentiel', 'Sur mesure']
  const now = Date.now()
  for (let start = 0; start < MESSAGES; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, MESSAGES - start) }, (_, k) => {
      const i = start + k
      const created = now - Math.floor((i / MESSAGES) * YEARS_MS)
      const state = i % 3 === 0 ? 'answered' : i % 17 === 0 ? 'archived' : i % 2 ? 'new' : 'in_progress'
      return {
        name: `Client ${i}`,
        email: `client${i}@exemple${i % 97}.fr`,
        message: `Bonjour, nous préparons un projet (demande n° ${i}). Pouvez-vous nous faire une proposition ?`,
        package: i % 4 ? packages[i % packages.length] : null,
        locale: i % 5 ? 'fr' : 'en',
        created_at: new Date(created).toISOString(),
        follow_up: state,
        answered_at: state === 'answered' ? new Date(created + ((i % 48) + 1) * 3600_000).toISOString() : null,
      }
    })
    await service.from('contact_submissions').insert(rows).throwOnError()
  }
  await createAdmin({ url, serviceRoleKey: LOCAL_SERVICE_ROLE_KEY, email: ADMIN.email, password: ADMIN.password })
  const admin = createClient(url, LOCAL_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } })
  const { error } = await admin.auth.signInWithPassword(ADMIN)
  if (error) throw error
  console.log(`[bench] ${MESSAGES} messages stored; ${RUNS} calls each, after 5 warm-ups`)
  const overview = await fetchInboxOverview(admin)
  console.log(
    `[bench] overview: ${overview.weeks.reduce((sum, week) => sum + week.total, 0)} messages in 12 weeks, ` +
      `${overview.overdue} overdue, median answer ${overview.answers.median_seconds} s`,
  )
  const p95s = [
    await timed('contact_inbox_overview (12 weeks, 30 days)', () => fetchInboxOverview(admin)),
    await timed('first page, counts (unread, overdue)', () => fetchInboxPage(admin, 0, '')),
    await timed('« À répondre », oldest first', () => fetchInboxPage(admin, 0, '', { view: 'waiting' })),
  ]
  exitCode = p95s.every((p95) => p95 <= GOAL_MS) ? 0 : 1
} catch (error) {
  console.error(`[bench] failed: ${(error as Error).message}`)
}
await exitAfterStopping(exitCode)
