import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

/*
 * The local Supabase server compares passwords off its request thread: a visitor's contact message is
 * stored while sign-ins are being checked. (The bound on the hashing queue is tested beside the twin,
 * in local/supabase/supabase-auth.test.ts.)
 */

let test: TestSupabase
beforeAll(async () => {
  // No throttling and room for every hash in the queue: the 40 comparisons all happen.
  test = await startTestSupabase({
    loginThrottle: { maxPerPair: 10_000, maxPerAddress: 10_000, maxPerEmail: 10_000 },
    passwordHasher: { maxQueued: 200 },
  })
  const created = await test
    .service()
    .auth.admin.createUser({ email: 'busy@example.fr', password: 'Busy-Password-123', email_confirm: true })
  if (created.error) throw created.error
})
afterAll(() => test.close())

/**
 * Opens `count` keep-alive connections to the server first: requests sent right after reuse them and
 * reach the server together, as a fast client's would (new connections would trickle in one by one).
 */
async function openConnections(url: string, count: number) {
  await Promise.all(
    Array.from({ length: count }, () => fetch(`${url}/auth/v1/health`).then((response) => response.arrayBuffer())),
  )
}

describe('password hashing does not hold up other requests', () => {
  it('an unrelated REST call is answered while 40 failed sign-ins are still being checked', async () => {
    const headers = {
      apikey: test.server.anonKey,
      Authorization: `Bearer ${test.server.anonKey}`,
      'Content-Type': 'application/json',
    }
    await openConnections(test.server.url, 100)
    // 40 bcrypt comparisons (~0.1 s each, at most 4 threads): seconds of hashing queued first.
    let signInsAnswered = 0
    const signIns = Array.from({ length: 40 }, (_, i) =>
      fetch(`${test.server.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'busy@example.fr', password: `wrong-${i}` }),
      }).then((r) => {
        signInsAnswered++
        return r.status
      }),
    )
    // Sent after them: were the hashing done on the request thread, it would wait for all 40.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const insert = await fetch(`${test.server.url}/rest/v1/contact_submissions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(VALID_ROW),
    })
    const answeredBeforeInsert = signInsAnswered
    expect(insert.status).toBe(201)
    const statuses = await Promise.all(signIns)
    expect(statuses.filter((status) => status === 400)).toHaveLength(40)
    expect(answeredBeforeInsert, 'the insert waited for every sign-in').toBeLessThan(40)
  }, 300_000) // a ceiling for hangs: bcrypt comparisons on a busy machine
})
