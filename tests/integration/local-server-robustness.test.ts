import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newSubmissionId } from '@/lib/contact/submission-id'
import { MAX_BODY_BYTES } from '@plume/local-twins/supabase'
import { halfTlsRecord, silentSocket, slowBody, slowHeaders } from '@plume/local-twins/connection-probes'
import { clientAddress, startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase({ contactRateLimit: 1000 })
})
afterAll(() => test.close())

function rest(path: string, init: RequestInit & { key?: string } = {}) {
  const key = init.key ?? test.server.anonKey
  return fetch(`${test.server.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  })
}

describe('the local server answers bad requests with 4xx and keeps running', () => {
  it('malformed JSON → 400 PGRST102', async () => {
    const response = await rest('contact_submissions', { method: 'POST', body: '{"name": "A",' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'PGRST102', details: expect.any(String), hint: null, message: expect.any(String) })
  })

  it('unknown table → 404 PGRST205; unknown column → 400', async () => {
    expect((await rest('nope')).status).toBe(404)
    const column = await rest('contact_submissions?select=nope', { key: test.server.serviceRoleKey })
    expect(column.status).toBe(400)
    expect((await column.json()).code).toBe('42703')
  })

  it('bad filters → 400', async () => {
    for (const query of ['id=eq', 'id=foo.1', 'id=eq.not-a-uuid', 'or=(name.eq.a', 'created_at=gt.yesterday-ish', 'limit=-1', 'order=name.sideways', 'is_read=is.maybe']) {
      const response = await rest(`contact_submissions?${query}`, { key: test.server.serviceRoleKey })
      expect(response.status, query).toBe(400)
      const body = await response.json()
      expect(Object.keys(body).sort(), query).toEqual(['code', 'details', 'hint', 'message'])
    }
  })

  it('oversized bodies → 413', async () => {
    const response = await rest('contact_submissions', { method: 'POST', body: JSON.stringify({ ...VALID_ROW, message: 'x'.repeat(MAX_BODY_BYTES) }) })
    expect(response.status).toBe(413)
  })

  it('missing or wrong API key → 401', async () => {
    expect((await fetch(`${test.server.url}/rest/v1/contact_submissions`)).status).toBe(401)
    expect((await fetch(`${test.server.url}/rest/v1/contact_submissions`, { headers: { apikey: 'wrong' } })).status).toBe(401)
  })

  it('update or delete without a filter is refused, as pg-safeupdate does on Supabase', async () => {
    expect((await rest('contact_submissions', { method: 'DELETE', key: test.server.serviceRoleKey })).status).toBe(400)
    expect((await rest('contact_submissions', { method: 'PATCH', key: test.server.serviceRoleKey, body: '{"is_read":true}' })).status).toBe(400)
  })

  it('answers CORS preflights and exposes Content-Range', async () => {
    const response = await fetch(`${test.server.url}/rest/v1/contact_submissions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'apikey, authorization, content-type' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
  })

  it('supports count=exact, HEAD, ranges, filters and single objects like PostgREST', async () => {
    const service = test.service()
    await service.from('contact_submissions').insert(Array.from({ length: 7 }, (_, i) => ({ ...VALID_ROW, name: `Range ${i}`, phone: i % 2 ? null : '0102030405' })))
    const page = await service.from('contact_submissions').select('name', { count: 'exact' }).like('name', 'Range*').order('name').range(2, 4)
    expect(page.status).toBe(206)
    expect(page.count).toBe(7)
    expect(page.data).toEqual([{ name: 'Range 2' }, { name: 'Range 3' }, { name: 'Range 4' }])
    const head = await service.from('contact_submissions').select('*', { count: 'exact', head: true }).is('phone', null).like('name', 'Range*')
    expect(head.count).toBe(3)
    const inList = await service.from('contact_submissions').select('name').in('name', ['Range 1', 'Range 6', 'missing']).order('name', { ascending: false })
    expect(inList.data).toEqual([{ name: 'Range 6' }, { name: 'Range 1' }])
    const single = await service.from('contact_submissions').select('name').eq('name', 'Range 3').single()
    expect(single.data).toEqual({ name: 'Range 3' })
    const notSingle = await service.from('contact_submissions').select('name').like('name', 'Range*').single()
    expect(notSingle.status).toBe(406)
    expect(notSingle.error?.code).toBe('PGRST116')
    const negated = await service.from('contact_submissions').select('name', { count: 'exact', head: true }).like('name', 'Range*').not('phone', 'is', null)
    expect(negated.count).toBe(4)
  })

  it('filter values are data, never SQL; NUL is refused with 400', async () => {
    const before = (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n
    for (const value of ["x'); delete from public.contact_submissions; --", "\\'; select 1; --", "x''", '$$; drop table public.user_roles; $$']) {
      const response = await rest(`contact_submissions?select=name&name=eq.${encodeURIComponent(value)}`, { key: test.server.serviceRoleKey })
      expect(response.status, value).toBe(200)
      expect(await response.json()).toEqual([])
    }
    expect((await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n).toBe(before)
    expect((await test.stored(`select count(*)::int as n from pg_tables where tablename = 'user_roles'`))[0].n).toBe(1)
    const nul = await rest('contact_submissions?name=eq.a%00b', { key: test.server.serviceRoleKey })
    expect(nul.status).toBe(400)
  })

  it('survives a burst of garbage requests', async () => {
    const garbage = ['\u0000', '[', '{"a":', 'null', '1', '"x"', '[1,2]', '{"name":{"$gt":""}}', '{"__proto__":{"x":1}}']
    const statuses = await Promise.all(garbage.map((body) => rest('contact_submissions', { method: 'POST', body }).then((response) => response.status)))
    for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400)
    for (const status of statuses) expect(status).toBeLessThan(500)
    expect((await fetch(`${test.server.url}/auth/v1/health`)).status).toBe(200)
  })
})

/** A request fetch() would refuse to send (TRACE, a Host header of our choosing, any path bytes). */
function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const target = new URL(url)
    const call = httpRequest({ host: target.hostname, port: target.port, method, path, headers, setHost: !('Host' in headers) }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }))
    })
    call.on('error', reject)
    call.end(body)
  })
}

/**
 * Opens `count` keep-alive connections to the server first: requests sent right after reuse them and
 * reach the server together, as a fast client's would (new connections would trickle in one by one).
 */
async function openConnections(url: string, count: number) {
  await Promise.all(Array.from({ length: count }, () => fetch(`${url}/auth/v1/health`).then((response) => response.arrayBuffer())))
}

/*
 * Issue 11: a black-box probe of a fresh clone. Each block reproduces one finding over HTTP, as the
 * probe did, and checks the answer it should have had.
 */
describe('probe (issue 11): sign-in throttling', () => {
  let probe: TestSupabase
  const password = 'Probe-Admin-Password-1'
  beforeAll(async () => {
    // One trusted proxy in front, so the test can speak from several client addresses.
    probe = await startTestSupabase({ trustedProxyHops: 2 })
    const created = await probe.service().auth.admin.createUser({ email: 'probe-admin@example.fr', password, email_confirm: true })
    if (created.error) throw created.error
  })
  afterAll(() => probe.close())

  async function signIn(email: string, attempt: string, address: string) {
    const response = await fetch(`${probe.server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: probe.server.anonKey, Authorization: `Bearer ${probe.server.anonKey}`, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: JSON.stringify({ email, password: attempt }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it('60 concurrent attempts on one email from one address: only 5 passwords are compared, the rest get 429', async () => {
    const address = clientAddress()
    const attempts = Array.from({ length: 60 }, (_, i) => (i === 59 ? password : `wrong-password-${i}`))
    await openConnections(probe.server.url, 60)
    const results = await Promise.all(attempts.map((attempt) => signIn('probe-admin@example.fr', attempt, address)))
    const compared = results.filter((result) => result.status !== 429)
    expect(compared).toHaveLength(5)
    for (const result of results.filter((r) => r.status === 429)) {
      expect(result.body).toMatchObject({ code: 'over_request_rate_limit', error_code: 'over_request_rate_limit', message: 'Request rate limit reached' })
    }
  })

  it('50 concurrent attempts from one address on 50 emails: 20 pass, 30 get 429', async () => {
    const address = clientAddress()
    await openConnections(probe.server.url, 50)
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => signIn(`spray-${i}@example.fr`, 'wrong-password', address)))
    expect(results.filter((result) => result.status === 400)).toHaveLength(20)
    expect(results.filter((result) => result.status === 429)).toHaveLength(30)
  })

  it('five wrong passwords from one address do not lock the admin out from another address', async () => {
    const attacker = clientAddress()
    for (let i = 0; i < 5; i++) expect((await signIn('probe-admin@example.fr', `guess-${i}`, attacker)).status).toBe(400)
    expect((await signIn('probe-admin@example.fr', password, attacker)).status).toBe(429)
    expect((await signIn('probe-admin@example.fr', password, clientAddress())).status).toBe(200)
  })
})

describe('probe (issue 11): password hashing does not block other requests', () => {
  let probe: TestSupabase
  beforeAll(async () => {
    // No throttling and room for every hash in the queue: the 40 comparisons all happen.
    probe = await startTestSupabase({ loginThrottle: { maxPerPair: 10_000, maxPerAddress: 10_000, maxPerEmail: 10_000 }, passwordHasher: { maxQueued: 200 } })
    const created = await probe.service().auth.admin.createUser({ email: 'busy@example.fr', password: 'Busy-Password-123', email_confirm: true })
    if (created.error) throw created.error
  })
  afterAll(() => probe.close())

  it('an unrelated REST call is answered while 40 failed sign-ins are still being checked', async () => {
    const headers = { apikey: probe.server.anonKey, Authorization: `Bearer ${probe.server.anonKey}`, 'Content-Type': 'application/json' }
    await openConnections(probe.server.url, 100)
    // 40 bcrypt comparisons (~0.1 s each, at most 4 threads): seconds of hashing queued first.
    let signInsAnswered = 0
    const signIns = Array.from({ length: 40 }, (_, i) =>
      fetch(`${probe.server.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers, body: JSON.stringify({ email: 'busy@example.fr', password: `wrong-${i}` }) }).then((r) => {
        signInsAnswered++
        return r.status
      }),
    )
    // Sent after them: were the hashing done on the request thread, it would wait for all 40.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const insert = await fetch(`${probe.server.url}/rest/v1/contact_submissions`, { method: 'POST', headers, body: JSON.stringify(VALID_ROW) })
    const answeredBeforeInsert = signInsAnswered
    expect(insert.status).toBe(201)
    const statuses = await Promise.all(signIns)
    expect(statuses.filter((status) => status === 400)).toHaveLength(40)
    expect(answeredBeforeInsert, 'the insert waited for every sign-in').toBeLessThan(40)
  }, 300_000) // a ceiling for hangs: bcrypt comparisons on a busy machine

  it('bounds the hashing queue: past it, sign-in answers 429 at once instead of queueing', async () => {
    const bounded = await startTestSupabase({ loginThrottle: { maxPerPair: 10_000, maxPerAddress: 10_000, maxPerEmail: 10_000 }, passwordHasher: { workers: 1, maxQueued: 4 } })
    try {
      const headers = { apikey: bounded.server.anonKey, Authorization: `Bearer ${bounded.server.anonKey}`, 'Content-Type': 'application/json' }
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${bounded.server.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers, body: JSON.stringify({ email: `nobody${i}@example.fr`, password: 'wrong' }) }).then((r) => r.status),
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

describe("probe (issue 11): malformed requests get a 4xx in the service's error shape, never a 500", () => {
  const anon = () => ({ apikey: test.server.anonKey, Authorization: `Bearer ${test.server.anonKey}` })
  const service = () => ({ apikey: test.server.serviceRoleKey, Authorization: `Bearer ${test.server.serviceRoleKey}` })
  const postgrestShape = (body: Record<string, unknown>) => expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message'])

  it('a badly percent-encoded REST path: 404, no such table', async () => {
    const { status, body } = await rawRequest(test.server.url, 'GET', '/rest/v1/%E0%A4%A', anon())
    expect(status).toBe(404)
    postgrestShape(body)
    expect(body.code).toBe('PGRST205')
  })

  it('a Host header with a space: 400 from the gateway', async () => {
    const { status, body } = await rawRequest(test.server.url, 'GET', '/rest/v1/contact_submissions', { ...anon(), Host: 'a b' })
    expect(status).toBe(400)
    expect(body).toEqual({ message: 'Invalid Host header' })
  })

  it('TRACE on a function: 405', async () => {
    const { status, body } = await rawRequest(test.server.url, 'TRACE', '/functions/v1/send-contact-email', anon())
    expect(status).toBe(405)
    expect(body).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'Method TRACE is not allowed' })
    expect((await rawRequest(test.server.url, 'TRACE', '/rest/v1/contact_submissions', anon())).status).toBe(405)
  })

  it('an insert nested 8,000 levels deep: 413 (stack depth), nothing stored; the auth API says 400', async () => {
    const before = (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n
    for (const nested of ['{"a":'.repeat(8000) + '1' + '}'.repeat(8000), '['.repeat(8000) + ']'.repeat(8000)]) {
      const response = await rest('contact_submissions', { method: 'POST', body: `{"name":${nested},"email":"a@b.fr","message":"Bonjour, un message."}` })
      expect(response.status).toBe(413)
      const body = await response.json()
      postgrestShape(body)
      expect(body.code).toBe('54001')
    }
    expect((await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n).toBe(before)
    const auth = await rawRequest(test.server.url, 'POST', '/auth/v1/admin/users', { ...service(), 'Content-Type': 'application/json' }, `{"email":"deep@example.fr","user_metadata":${'['.repeat(8000)}${']'.repeat(8000)}}`)
    expect(auth.status).toBe(400)
    expect(auth.body).toMatchObject({ code: 'bad_json', error_code: 'bad_json' })
  })

  it('page=Infinity (and other non-integers) on admin users: 400 Bad Pagination Parameters', async () => {
    for (const query of ['page=Infinity', 'page=-1', 'per_page=1e3', 'page=99999999999999999999', 'per_page=NaN']) {
      const { status, body } = await rawRequest(test.server.url, 'GET', `/auth/v1/admin/users?${query}`, service())
      expect(status, query).toBe(400)
      expect(body, query).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('Bad Pagination Parameters') })
    }
    expect((await rawRequest(test.server.url, 'GET', '/auth/v1/admin/users?page=0&per_page=2', service())).status).toBe(200)
  })

  it('auth inputs Postgres cannot hold or that name nothing: 4xx, not 500', async () => {
    const json = { ...service(), 'Content-Type': 'application/json' }
    const cases: [string, string, string, unknown, number][] = [
      ['sign-in with NUL in the email', 'POST', '/auth/v1/token?grant_type=password', { email: 'a\u0000@b.fr', password: 'whatever-password' }, 400],
      ['refresh with NUL in the token', 'POST', '/auth/v1/token?grant_type=refresh_token', { refresh_token: 'abc\u0000def' }, 400],
      ['create with a 300-character email', 'POST', '/auth/v1/admin/users', { email: `${'a'.repeat(290)}@example.fr`, password: 'Long-Email-Pass-1' }, 400],
      ['create with NUL in the metadata', 'POST', '/auth/v1/admin/users', { email: 'nul-meta@example.fr', user_metadata: { name: 'a\u0000b' } }, 400],
      ['create with a lone surrogate in the metadata', 'POST', '/auth/v1/admin/users', { email: 'surrogate@example.fr', user_metadata: { name: '\ud800' } }, 400],
      ['create with a 100-byte password', 'POST', '/auth/v1/admin/users', { email: 'long-pass@example.fr', password: 'P4ss-'.repeat(20) }, 400],
      ['get a user by a non-uuid of 36 dashes', 'GET', `/auth/v1/admin/users/${'-'.repeat(36)}`, undefined, 404],
      ['delete a user by a non-uuid of 36 dashes', 'DELETE', `/auth/v1/admin/users/${'-'.repeat(36)}`, undefined, 404],
    ]
    for (const [label, method, path, body, expected] of cases) {
      const response = await rawRequest(test.server.url, method, path, json, body === undefined ? undefined : JSON.stringify(body))
      expect(response.status, label).toBe(expected)
      expect(response.body, label).toMatchObject({ code: expect.any(String), msg: expect.any(String), message: expect.any(String) })
    }
  })

  it('still answers normally afterwards', async () => {
    expect((await fetch(`${test.server.url}/auth/v1/health`)).status).toBe(200)
    expect((await rest('contact_submissions', { method: 'POST', body: JSON.stringify(VALID_ROW) })).status).toBe(201)
  })
})

describe("probe (issue 11): heavy requests are bounded by the roles' statement timeouts", () => {
  let heavy: TestSupabase
  const ROWS = 5000
  beforeAll(async () => {
    heavy = await startTestSupabase({ statementTimeouts: { service_role: 1000 } })
    await heavy.server.database.db.exec(
      `insert into public.contact_submissions (name, email, message) select 'Heavy ' || g, 'heavy' || g || '@example.fr', repeat('Bonjour ', 100) || g from generate_series(1, ${ROWS}) g`,
    )
  })
  afterAll(() => heavy.close())

  const asService = { apikey: '', Authorization: '' }
  beforeAll(() => {
    asService.apikey = heavy.server.serviceRoleKey
    asService.Authorization = `Bearer ${heavy.server.serviceRoleKey}`
  })
  /** 200 substring searches over every message: seconds of work for the engine. */
  const heavyFilter = `or=(${Array.from({ length: 200 }, (_, i) => `message.ilike.*zz${i}*`).join(',')})`

  it('reads the roles\' timeouts from the database as Supabase sets them: anon 3 s, authenticated 8 s, others the connection role\'s 8 s', async () => {
    const defaults = await startTestSupabase()
    try {
      expect(['anon', 'authenticated', 'service_role'].map((role) => defaults.server.database.statementTimeoutFor(role as 'anon'))).toEqual([3000, 8000, 8000])
    } finally {
      await defaults.close()
    }
  })

  it('a read past the timeout is cancelled with 504 57014, and a request queued behind it is answered right after', async () => {
    const slow = fetch(`${heavy.server.url}/rest/v1/contact_submissions?select=id&${heavyFilter}`, { headers: asService })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const queued = fetch(`${heavy.server.url}/rest/v1/contact_submissions?select=name&name=eq.Heavy%201`, { headers: asService })
    const response = await slow
    expect(response.status).toBe(504)
    expect(await response.json()).toEqual({ code: '57014', details: null, hint: null, message: 'canceling statement due to statement timeout' })
    const next = await queued
    expect(next.status).toBe(200)
    expect(await next.json()).toEqual([{ name: 'Heavy 1' }])
    // Cancelled, not run to the end and then refused: the engine was stopped mid-statement and restarted.
    expect(heavy.logs.some((entry) => entry.event === 'database.restart')).toBe(true)
  }, 60_000)

  it('a write past the timeout changes nothing; committed data survives the restart', async () => {
    const response = await fetch(`${heavy.server.url}/rest/v1/contact_submissions?${heavyFilter.replace(/\)$/, ',name.like.Heavy*)')}`, {
      method: 'PATCH',
      headers: { ...asService, 'Content-Type': 'application/json' },
      body: JSON.stringify({ is_read: true }),
    })
    expect(response.status).toBe(504)
    const [counts] = await heavy.stored(`select count(*)::int as total, count(*) filter (where is_read)::int as read from public.contact_submissions`)
    expect(counts).toEqual({ total: ROWS, read: 0 })
    expect((await heavy.service().from('contact_submissions').insert(VALID_ROW)).status).toBe(201)
  }, 60_000)
})

describe('probe (issue 11): invisible and direction-override characters in contact fields', () => {
  it('"Bob \\u202egnp.exe" as the name, or a zero-width space in the email: 400 with the CHECK that failed, nothing stored', async () => {
    const before = (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n
    for (const [change, constraint] of [
      [{ name: 'Bob \u202egnp.exe' }, 'contact_submissions_name_visible_check'],
      [{ name: 'Bob\u200b' + 'Smith' }, 'contact_submissions_name_visible_check'],
      [{ email: 'bob\u2066@example.fr' }, 'contact_submissions_email_visible_check'],
    ] as const) {
      const response = await rest('contact_submissions', { method: 'POST', body: JSON.stringify({ ...VALID_ROW, ...change }) })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body).toMatchObject({ code: '23514', message: expect.stringContaining(constraint) })
    }
    expect((await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n).toBe(before)
  })

  it('the same characters in the message are stored as sent (the inbox shows them as marks)', async () => {
    const message = 'Ouvrez la pièce \u202egnp.exe\u200b, merci.'
    expect((await rest('contact_submissions', { method: 'POST', body: JSON.stringify({ ...VALID_ROW, email: 'marks@example.fr', message }) })).status).toBe(201)
    expect(await test.stored(`select message from public.contact_submissions where email = 'marks@example.fr'`)).toEqual([{ message }])
  })
})

describe('probe (issue 11): send-contact-email is no longer an open mail relay', () => {
  let relay: TestSupabase
  let outbox: string
  const savedEnv = { ...process.env }
  beforeAll(async () => {
    // The default limit (5 messages per address per 10 minutes), behind one trusted proxy.
    relay = await startTestSupabase({ trustedProxyHops: 2 })
    outbox = mkdtempSync(join(tmpdir(), 'outbox-relay-'))
    process.env.OUTBOX_DIR = outbox
    delete process.env.SMTP_URL
  })
  afterAll(async () => {
    process.env = savedEnv
    rmSync(outbox, { recursive: true, force: true })
    await relay.close()
  })

  async function notify(address: string, body: unknown) {
    const response = await fetch(`${relay.server.url}/functions/v1/send-contact-email`, {
      method: 'POST',
      headers: { apikey: relay.server.anonKey, Authorization: `Bearer ${relay.server.anonKey}`, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: await response.json() }
  }

  it('any text with any Reply-To, without a stored message: 400, nothing sent', async () => {
    const spam = { name: 'Relay', email: 'victim@example.org', message: 'Any text the sender likes, at any rate.', website: '', _meta: { fillTime: 999_999 } }
    for (let i = 0; i < 20; i++) expect((await notify(clientAddress(), spam)).status).toBe(400)
    expect(readdirSync(outbox)).toHaveLength(0)
  })

  it('an address refused by the insert limit gets nothing more sent: one email per stored message, and only five are stored', async () => {
    const address = clientAddress()
    const client = relay.anon({ 'X-Forwarded-For': address })
    const ids: string[] = []
    for (let i = 0; i < 6; i++) {
      const id = newSubmissionId()
      const { status } = await client.from('contact_submissions').insert({ id, ...VALID_ROW, email: `relay-${i}@example.fr` })
      expect(status).toBe(i < 5 ? 201 : 429)
      ids.push(id)
    }
    const statuses: number[] = []
    for (const id of ids) statuses.push((await notify(address, { id, email: 'victim@example.org', message: 'Replaced text?' })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404])
    // Again, from the same address or any other: already sent.
    for (const id of ids.slice(0, 5)) expect((await notify(clientAddress(), { id })).status).toBe(409)
    const emails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'))
    expect(emails).toHaveLength(5)
    for (const email of emails) expect(email).not.toContain('victim@example.org')
  })
})

describe('connection timeouts (issue #20: 0 of 20 slow connections closed after 100 s)', () => {
  let slow: TestSupabase
  beforeAll(async () => {
    slow = await startTestSupabase({ connectionTimeouts: { headersMs: 500, requestMs: 1_000, idleMs: 1_000 } })
  })
  afterAll(() => slow?.close())

  it('closes silent sockets, dripped headers and bodies, and stray TLS bytes', async () => {
    const probes = [silentSocket, slowHeaders, halfTlsRecord, (port: number, wait: number) => slowBody(port, wait, '/rest/v1/contact_submissions')]
    const closed = await Promise.all(probes.flatMap((probe) => Array.from({ length: 5 }, () => probe(slow.server.port, 15_000))))
    expect(closed).toEqual(closed.map(() => true))
  })

  it('still answers ordinary requests', async () => {
    expect((await fetch(`${slow.server.url}/auth/v1/health`)).status).toBe(200)
  })
})
