import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

/*
 * Heavy requests on the local Supabase server are bounded by the API roles' statement timeouts, as on
 * Supabase, over this project's messages table. (The timeouts the roles get by default are tested
 * beside the twin, in local/supabase/supabase-gateway.test.ts.)
 */

let heavy: TestSupabase
const ROWS = 5000
const asService = { apikey: '', Authorization: '' }
beforeAll(async () => {
  heavy = await startTestSupabase({ statementTimeouts: { service_role: 1000 } })
  await heavy.server.database.db.exec(
    `insert into public.contact_submissions (name, email, message) select 'Heavy ' || g, 'heavy' || g || '@example.fr', repeat('Bonjour ', 100) || g from generate_series(1, ${ROWS}) g`,
  )
  asService.apikey = heavy.server.serviceRoleKey
  asService.Authorization = `Bearer ${heavy.server.serviceRoleKey}`
})
afterAll(() => heavy.close())

/** 200 substring searches over every message: seconds of work for the engine. */
const heavyFilter = `or=(${Array.from({ length: 200 }, (_, i) => `message.ilike.*zz${i}*`).join(',')})`

describe("heavy requests are cut off at the role's statement timeout", () => {
  it('a read past the timeout is cancelled with 504 57014, and a request queued behind it is answered right after', async () => {
    const slow = fetch(`${heavy.server.url}/rest/v1/contact_submissions?select=id&${heavyFilter}`, {
      headers: asService,
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const queued = fetch(`${heavy.server.url}/rest/v1/contact_submissions?select=name&name=eq.Heavy%201`, {
      headers: asService,
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
    const response = await fetch(`${heavy.server.url}/rest/v1/contact_submissions?${filter}`, {
      method: 'PATCH',
      headers: { ...asService, 'Content-Type': 'application/json' },
      body: JSON.stringify({ is_read: true }),
    })
    expect(response.status).toBe(504)
    const [counts] = await heavy.stored(
      `select count(*)::int as total, count(*) filter (where is_read)::int as read from public.contact_submissions`,
    )
    expect(counts).toEqual({ total: ROWS, read: 0 })
    expect((await heavy.service().from('contact_submissions').insert(VALID_ROW)).status).toBe(201)
  }, 60_000)
})
