import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientAddress, openConnections, rawRequest, startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * The Supabase twin's auth API over HTTP: the sign-in throttle as concurrent clients meet it, the
 * bounded queue of password hashing, and malformed input answered in GoTrue's shape, never a 500.
 * (login-throttle.test.ts checks the throttle's counting on its own, with a clock of its own.)
 */

let twin: TestTwin
const password = 'Probe-Admin-Password-1'
beforeAll(async () => {
  // One trusted proxy in front, so the test can speak from several client addresses.
  twin = await startTestTwin({ trustedProxyHops: 2 })
  const created = await fetch(`${twin.server.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { ...twin.service, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'probe-admin@example.fr', password, email_confirm: true }),
  })
  if (created.status !== 200) throw new Error(`creating the user: ${created.status} ${await created.text()}`)
})
afterAll(() => twin.close())

describe('the sign-in throttle, as concurrent clients meet it', () => {
  async function signIn(email: string, attempt: string, address: string) {
    const response = await fetch(`${twin.server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { ...twin.anon, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: JSON.stringify({ email, password: attempt }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it('60 concurrent attempts on one email from one address: only 5 passwords are compared, the rest get 429', async () => {
    const address = clientAddress()
    const attempts = Array.from({ length: 60 }, (_, i) => (i === 59 ? password : `wrong-password-${i}`))
    await openConnections(twin.server.url, 60)
    const results = await Promise.all(attempts.map((attempt) => signIn('probe-admin@example.fr', attempt, address)))
    const compared = results.filter((result) => result.status !== 429)
    expect(compared).toHaveLength(5)
    for (const result of results.filter((r) => r.status === 429)) {
      expect(result.body).toMatchObject({
        code: 'over_request_rate_limit',
        error_code: 'over_request_rate_limit',
        message: 'Request rate limit reached',
      })
    }
  })

  it('50 concurrent attempts from one address on 50 emails: 20 pass, 30 get 429', async () => {
    const address = clientAddress()
    await openConnections(twin.server.url, 50)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signIn(`spray-${i}@example.fr`, 'wrong-password', address)),
    )
    expect(results.filter((result) => result.status === 400)).toHaveLength(20)
    expect(results.filter((result) => result.status === 429)).toHaveLength(30)
  })

  it('five wrong passwords from one address do not lock the admin out from another address', async () => {
    const attacker = clientAddress()
    for (let i = 0; i < 5; i++)
      expect((await signIn('probe-admin@example.fr', `guess-${i}`, attacker)).status).toBe(400)
    expect((await signIn('probe-admin@example.fr', password, attacker)).status).toBe(429)
    expect((await signIn('probe-admin@example.fr', password, clientAddress())).status).toBe(200)
  })
})

describe("the auth API answers malformed input with a 4xx in GoTrue's shape, never a 500", () => {
  const json = () => ({ ...twin.service, 'Content-Type': 'application/json' })

  it('a body nested 8,000 levels deep: 400 bad_json', async () => {
    const deep = `{"email":"deep@example.fr","user_metadata":${'['.repeat(8000)}${']'.repeat(8000)}}`
    const auth = await rawRequest(twin.server.url, 'POST', '/auth/v1/admin/users', json(), deep)
    expect(auth.status).toBe(400)
    expect(auth.body).toMatchObject({ code: 'bad_json', error_code: 'bad_json' })
  })

  it('page=Infinity (and other non-integers) on admin users: 400 Bad Pagination Parameters', async () => {
    for (const query of ['page=Infinity', 'page=-1', 'per_page=1e3', 'page=99999999999999999999', 'per_page=NaN']) {
      const { status, body } = await rawRequest(twin.server.url, 'GET', `/auth/v1/admin/users?${query}`, twin.service)
      expect(status, query).toBe(400)
      expect(body, query).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining('Bad Pagination Parameters'),
      })
    }
    expect(
      (await rawRequest(twin.server.url, 'GET', '/auth/v1/admin/users?page=0&per_page=2', twin.service)).status,
    ).toBe(200)
  })

  it('auth inputs Postgres cannot hold or that name nothing: 4xx, not 500', async () => {
    const token = '/auth/v1/token?grant_type='
    const cases: [string, string, string, unknown, number][] = [
      [
        'sign-in with NUL in the email',
        'POST',
        `${token}password`,
        { email: 'a\u0000@b.fr', password: 'whatever-password' },
        400,
      ],
      ['refresh with NUL in the token', 'POST', `${token}refresh_token`, { refresh_token: 'abc\u0000def' }, 400],
      [
        'create with a 300-character email',
        'POST',
        '/auth/v1/admin/users',
        { email: `${'a'.repeat(290)}@example.fr`, password: 'Long-Email-Pass-1' },
        400,
      ],
      [
        'create with NUL in the metadata',
        'POST',
        '/auth/v1/admin/users',
        { email: 'nul-meta@example.fr', user_metadata: { name: 'a\u0000b' } },
        400,
      ],
      [
        'create with a lone surrogate in the metadata',
        'POST',
        '/auth/v1/admin/users',
        { email: 'surrogate@example.fr', user_metadata: { name: '\ud800' } },
        400,
      ],
      [
        'create with a 100-byte password',
        'POST',
        '/auth/v1/admin/users',
        { email: 'long-pass@example.fr', password: 'P4ss-'.repeat(20) },
        400,
      ],
      ['get a user by a non-uuid of 36 dashes', 'GET', `/auth/v1/admin/users/${'-'.repeat(36)}`, undefined, 404],
      ['delete a user by a non-uuid of 36 dashes', 'DELETE', `/auth/v1/admin/users/${'-'.repeat(36)}`, undefined, 404],
    ]
    for (const [label, method, path, body, expected] of cases) {
      const response = await rawRequest(
        twin.server.url,
        method,
        path,
        json(),
        body === undefined ? undefined : JSON.stringify(body),
      )
      expect(response.status, label).toBe(expected)
      expect(response.body, label).toMatchObject({
        code: expect.any(String),
        msg: expect.any(String),
        message: expect.any(String),
      })
    }
  })

  it('still answers normally afterwards', async () => {
    expect((await fetch(`${twin.server.url}/auth/v1/health`)).status).toBe(200)
    expect((await rawRequest(twin.server.url, 'GET', '/auth/v1/admin/users?per_page=1', twin.service)).status).toBe(200)
  })
})

describe('password hashing: a bounded queue', () => {
  it('past its bound, sign-in answers 429 at once instead of queueing', async () => {
    const unthrottled = { maxPerPair: 10_000, maxPerAddress: 10_000, maxPerEmail: 10_000 }
    const bounded = await startTestTwin({ loginThrottle: unthrottled, passwordHasher: { workers: 1, maxQueued: 4 } })
    try {
      const headers = { ...bounded.anon, 'Content-Type': 'application/json' }
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${bounded.server.url}/auth/v1/token?grant_type=password`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ email: `nobody${i}@example.fr`, password: 'wrong' }),
          }).then((r) => r.status),
        ),
      )
      expect(statuses.filter((status) => status === 400).length).toBeGreaterThanOrEqual(5)
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
      expect(statuses.every((status) => status === 400 || status === 429)).toBe(true)
    } finally {
      await bounded.close()
    }
  }, 60_000)
})
