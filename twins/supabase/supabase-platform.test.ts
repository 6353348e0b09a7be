import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isDue, parseSchedule } from './cron-runner.ts'
import { startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * The platform features the twin adds around a project's own SQL and functions: pg_cron's jobs (run
 * once at start, then on schedule), a function's answer as the browser gets it (its own CORS headers,
 * not doubled), and RPC calls (supabase.rpc) under the caller's role.
 */

const MIGRATION = `
create table public.ticks (id bigint generated always as identity, note text not null);
grant select on public.ticks to service_role;
select cron.schedule('tick', '*/5 * * * *', $$insert into public.ticks (note) values ('cron')$$);
select cron.schedule('broken', '@daily', 'select * from public.no_such_table');
select cron.schedule('paused', '@hourly', $$insert into public.ticks (note) values ('paused')$$);
update cron.job set active = false where jobname = 'paused';

create function public.add_numbers(a integer, b integer default 1) returns integer
language sql immutable as $$ select a + b $$;
create function public.numbers_upto(n integer) returns setof integer
language sql immutable as $$ select generate_series(1, n) $$;
create function public.forget() returns void language sql as $$ select $$;
create function public.service_only() returns text language sql as $$ select 'secret' $$;
revoke execute on function public.service_only() from public, anon, authenticated;
`

// Its own CORS headers, as a function answering browsers must set them on Supabase Edge.
const FUNCTION = `export default async function handler(request: Request): Promise<Response> {
  return new Response(JSON.stringify({ method: request.method }), {
    headers: { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' },
  })
}
`

let twin: TestTwin
beforeAll(async () => {
  twin = await startTestTwin({
    files: { 'migrations/20260101000000_platform.sql': MIGRATION, 'functions/echo/handler.ts': FUNCTION },
  })
})
afterAll(() => twin.close())

describe("the twin's pg_cron", () => {
  it('runs every active job once at start, records each run as pg_cron does, logs only a failing one, and leaves an inactive one', async () => {
    const rows = (await twin.server.database.db.query<{ note: string }>('select note from public.ticks')).rows
    expect(rows).toEqual([{ note: 'cron' }])
    const runs = (
      await twin.server.database.db.query<{ jobname: string; status: string; return_message: string }>(
        `select j.jobname, r.status, r.return_message
           from cron.job_run_details r join cron.job j using (jobid) order by r.runid`,
      )
    ).rows
    expect(runs.map(({ jobname, status }) => ({ jobname, status }))).toEqual([
      { jobname: 'tick', status: 'succeeded' },
      { jobname: 'broken', status: 'failed' },
    ])
    expect(runs[1].return_message).toMatch(/no_such_table/)
    const logged = twin.logs.filter((entry) => entry.event === 'cron.run')
    expect(logged.map(({ job, outcome }) => ({ job, outcome }))).toEqual([{ job: 'broken', outcome: 'failed' }])
  })

  it('keeps one job per name, as pg_cron: scheduling again replaces it; unschedule removes it', async () => {
    const { db } = twin.server.database
    await db.exec(`select cron.schedule('tick', '0 * * * *', 'select 1')`)
    expect((await db.query(`select schedule, command from cron.job where jobname = 'tick'`)).rows).toEqual([
      { schedule: '0 * * * *', command: 'select 1' },
    ])
    await db.exec(`select cron.unschedule('tick')`)
    expect((await db.query(`select count(*)::int as n from cron.job where jobname = 'tick'`)).rows).toEqual([{ n: 0 }])
    await expect(db.exec(`select cron.schedule('bad', 'every day', 'select 1')`)).rejects.toThrow(/invalid schedule/)
  })

  it('reads minute and hour fields, @hourly and @daily, in UTC; leaves out the rest', () => {
    const at = (iso: string) => new Date(iso)
    const everyFive = parseSchedule('*/5 * * * *')!
    expect(isDue(everyFive, at('2026-12-10T03:15:00Z'))).toBe(true)
    expect(isDue(everyFive, at('2026-12-10T03:16:00Z'))).toBe(false)
    const daily = parseSchedule('17 3 * * *')!
    expect(isDue(daily, at('2026-12-10T03:17:00Z'))).toBe(true)
    expect(isDue(daily, at('2026-12-10T04:17:00Z'))).toBe(false)
    const list = parseSchedule('0,30 8,20 * * *')!
    expect([...list.minutes]).toEqual([0, 30])
    expect([...list.hours]).toEqual([8, 20])
    expect(isDue(parseSchedule('@daily')!, at('2026-12-10T00:00:00Z'))).toBe(true)
    expect(isDue(parseSchedule('@hourly')!, at('2026-12-10T13:00:00Z'))).toBe(true)
    expect(isDue(parseSchedule('@hourly')!, at('2026-12-10T13:01:00Z'))).toBe(false)
    expect(parseSchedule('@reboot')!.minutes.size).toBe(0)
    for (const unsupported of ['0 3 * * 1', '0 3 1 * *', '1-5 * * * *', '60 * * * *', '30 seconds', '@weekly'])
      expect(parseSchedule(unsupported), unsupported).toBeNull()
  })
})

describe("a function's answer", () => {
  it('carries the function’s own Access-Control-Allow-Origin once, not the gateway’s as well', async () => {
    const response = await fetch(`${twin.server.url}/functions/v1/echo`, {
      method: 'POST',
      headers: { ...twin.anon, Origin: 'http://localhost:3000', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(200)
    // Headers joins repeated fields with ", ": a doubled header reads "*, *".
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    // The gateway's other CORS headers, which the function did not set, are still there.
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
  })
})

describe('RPC (supabase.rpc)', () => {
  const call = (name: string, body: unknown, headers = twin.anon) =>
    fetch(`${twin.server.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('calls a function with named arguments, defaults applying, and answers its value as JSON', async () => {
    expect(await (await call('add_numbers', { a: 2, b: 40 })).json()).toBe(42)
    expect(await (await call('add_numbers', { a: 2 })).json()).toBe(3)
    expect(await (await call('numbers_upto', { n: 3 })).json()).toEqual([1, 2, 3])
    const none = await call('forget', {})
    expect([none.status, await none.text()]).toEqual([204, ''])
  })

  it('answers 404 PGRST202 for no such function or arguments, 401 for a role without EXECUTE', async () => {
    const missing = await call('add_numbers', { b: 1 })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 'PGRST202' })
    expect((await call('no_such_function', {})).status).toBe(404)
    const refused = await call('service_only', {})
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: '42501' })
    expect(await (await call('service_only', {}, twin.service)).json()).toBe('secret')
  })
})
