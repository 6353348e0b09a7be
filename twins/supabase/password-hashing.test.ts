import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openConnections, startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * The Supabase twin compares passwords off its request thread: a visitor's insert is stored while
 * sign-ins are being checked. (The bound on the hashing queue: supabase-auth.test.ts.)
 */

// A table anyone may write to, as a contact form's.
const MIGRATION = `
create table public.messages (id bigint generated always as identity primary key, body text not null);
alter table public.messages enable row level security;
revoke all on public.messages from anon, authenticated;
grant insert (body) on public.messages to anon;
create policy anyone_sends on public.messages for insert to anon with check (true);
`

let twin: TestTwin
beforeAll(async () => {
  // No throttling and room for every hash in the queue: the 16 comparisons all happen.
  twin = await startTestTwin({
    files: { 'migrations/20260101000000_messages.sql': MIGRATION },
    loginThrottle: { maxPerPair: 10_000, maxPerAddress: 10_000, maxPerEmail: 10_000 },
    passwordHasher: { maxQueued: 200 },
  })
  const created = await fetch(`${twin.server.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { ...twin.service, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'busy@example.fr', password: 'Busy-Password-123', email_confirm: true }),
  })
  if (created.status !== 200) throw new Error(`creating the user: ${created.status} ${await created.text()}`)
})
afterAll(() => twin.close())

describe('password hashing does not hold up other requests', () => {
  it('an unrelated REST call is answered while 16 failed sign-ins are still being checked', async () => {
    const headers = { ...twin.anon, 'Content-Type': 'application/json' }
    await openConnections(twin.server.url, 100)
    // 16 bcrypt comparisons (~0.1 s each, at most 4 threads, on a machine whose cores the test command
    // keeps busy): about a second of hashing queued first.
    let signInsAnswered = 0
    const signIns = Array.from({ length: 16 }, (_, i) =>
      fetch(`${twin.server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'busy@example.fr', password: `wrong-${i}` }),
      }).then((r) => {
        signInsAnswered++
        return r.status
      }),
    )
    // Sent after them: were the hashing done on the request thread, it would wait for all 16.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const insert = await fetch(`${twin.server.url}/rest/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ body: 'Bonjour, je voudrais un devis.' }),
    })
    const answeredBeforeInsert = signInsAnswered
    expect(insert.status).toBe(201)
    const statuses = await Promise.all(signIns)
    expect(statuses.filter((status) => status === 400)).toHaveLength(16)
    expect(answeredBeforeInsert, 'the insert waited for every sign-in').toBeLessThan(16)
  }, 300_000) // a ceiling for hangs: bcrypt comparisons on a busy machine
})
