import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * Heavy requests on the Supabase twin are bounded by the API roles' statement timeouts, as on
 * Supabase: the statement is cancelled mid-way, its changes undone, and the next request answered.
 * (The timeouts the roles get by default: supabase-gateway.test.ts.)
 */

const MIGRATION = `
create table public.messages (
  id bigint generated always as identity primary key,
  name text not null,
  message text not null,
  is_read boolean not null default false
);
alter table public.messages enable row level security;
`

let heavy: TestTwin
const ROWS = 5000
beforeAll(async () => {
  heavy = await startTestTwin({
    files: { 'migrations/20260101000000_messages.sql': MIGRATION },
    statementTimeouts: { service_role: 1000 },
  })
  await heavy.server.database.db.exec(
    `insert into public.messages (name, message) select 'Heavy ' || g, repeat('Bonjour ', 100) || g from generate_series(1, ${ROWS}) g`,
  )
})
afterAll(() => heavy.close())

/** 200 substring searches over every message: seconds of work for the engine. */
const heavyFilter = `or=(${Array.from({ length: 200 }, (_, i) => `message.ilike.*zz${i}*`).join(',')})`

describe("heavy requests are cut off at the role's statement timeout", () => {
  it("the timeout set for a role is that role's only: the others keep the database's", () => {
    const roles = ['anon', 'authenticated', 'service_role'] as const
    expect(roles.map((role) => heavy.server.database.statementTimeoutFor(role))).toEqual([3000, 8000, 1000])
  })

  it('a read past the timeout is cancelled with 504 57014, and a request queued behind it is answered right after', async () => {
    const slow = fetch(`${heavy.server.url}/rest/v1/messages?select=id&${heavyFilter}`, { headers: heavy.service })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const queued = fetch(`${heavy.server.url}/rest/v1/messages?select=name&name=eq.Heavy%201`, {
      headers: heavy.service,
    })
    const response = await slow
    expect(response.status).toBe(504)
    expect(await response.json()).toEqual({
      code: '57014',
      details: null,
      hint: null,
      message: 'canceling statement due to statement timeout',
    })
    const next = await queued
    expect(next.status).toBe(200)
    expect(await next.json()).toEqual([{ name: 'Heavy 1' }])
    // Cancelled, not run to the end and then refused: the engine was stopped mid-statement and restarted.
    expect(heavy.logs.some((entry) => entry.event === 'database.restart')).toBe(true)
  }, 60_000)

  it('a write past the timeout changes nothing; committed data survives the restart', async () => {
    const filter = heavyFilter.replace(/\)$/, ',name.like.Heavy*)')
    const response = await fetch(`${heavy.server.url}/rest/v1/messages?${filter}`, {
      method: 'PATCH',
      headers: { ...heavy.service, 'Content-Type': 'application/json' },
      body: JSON.stringify({ is_read: true }),
    })
    expect(response.status).toBe(504)
    const [counts] = (
      await heavy.server.database.db.query<{ total: number; read: number }>(
        'select count(*)::int as total, count(*) filter (where is_read)::int as read from public.messages',
      )
    ).rows
    expect(counts).toEqual({ total: ROWS, read: 0 })
    const insert = await fetch(`${heavy.server.url}/rest/v1/messages`, {
      method: 'POST',
      headers: { ...heavy.service, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'After', message: 'Bonjour, après le redémarrage.' }),
    })
    expect(insert.status).toBe(201)
  }, 60_000)
})
