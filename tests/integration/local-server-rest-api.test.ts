import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '@plume/local-twins/supabase'
import { startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

/*
 * The local Supabase server's REST API (and the function gateway) over this project's tables and
 * function: bad input answered with a 4xx in PostgREST's shape, reads as PostgREST answers them, and
 * the server still serving afterwards. What the twin does before any table is involved (API key,
 * Host, CORS) is tested beside it, in local/supabase/supabase-gateway.test.ts.
 */

let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase({ contactRateLimit: 1000 })
})
afterAll(() => test.close())

function rest(path: string, init: RequestInit & { key?: string } = {}) {
  const key = init.key ?? test.server.anonKey
  return fetch(`${test.server.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: key,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      ...(init.headers as Record<string, string>),
    },
  })
}

const count = async () => (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n

/** A request fetch() would refuse to send (TRACE). */
function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const target = new URL(url)
    const call = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
        }),
      )
    })
    call.on('error', reject)
    call.end()
  })
}

describe('the REST API refuses bad requests with a 4xx and keeps running', () => {
  it('malformed JSON → 400 PGRST102', async () => {
    const response = await rest('contact_submissions', { method: 'POST', body: '{"name": "A",' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      code: 'PGRST102',
      details: expect.any(String),
      hint: null,
      message: expect.any(String),
    })
  })

  it('unknown table → 404 PGRST205; unknown column → 400', async () => {
    expect((await rest('nope')).status).toBe(404)
    const column = await rest('contact_submissions?select=nope', { key: test.server.serviceRoleKey })
    expect(column.status).toBe(400)
    expect((await column.json()).code).toBe('42703')
  })

  it('bad filters → 400', async () => {
    const queries = [
      'id=eq',
      'id=foo.1',
      'id=eq.not-a-uuid',
      'or=(name.eq.a',
      'created_at=gt.yesterday-ish',
      'limit=-1',
      'order=name.sideways',
      'is_read=is.maybe',
    ]
    for (const query of queries) {
      const response = await rest(`contact_submissions?${query}`, { key: test.server.serviceRoleKey })
      expect(response.status, query).toBe(400)
      const body = await response.json()
      expect(Object.keys(body).sort(), query).toEqual(['code', 'details', 'hint', 'message'])
    }
  })

  it('oversized bodies → 413', async () => {
    const body = JSON.stringify({ ...VALID_ROW, message: 'x'.repeat(MAX_BODY_BYTES) })
    const response = await rest('contact_submissions', { method: 'POST', body })
    expect(response.status).toBe(413)
  })

  it('an insert nested 8,000 levels deep: 413 (stack depth), nothing stored', async () => {
    const before = await count()
    for (const nested of ['{"a":'.repeat(8000) + '1' + '}'.repeat(8000), '['.repeat(8000) + ']'.repeat(8000)]) {
      const body = `{"name":${nested},"email":"a@b.fr","message":"Bonjour, un message."}`
      const response = await rest('contact_submissions', { method: 'POST', body })
      expect(response.status).toBe(413)
      const answer = await response.json()
      expect(Object.keys(answer).sort()).toEqual(['code', 'details', 'hint', 'message'])
      expect(answer.code).toBe('54001')
    }
    expect(await count()).toBe(before)
  })

  it('update or delete without a filter is refused, as pg-safeupdate does on Supabase', async () => {
    const key = test.server.serviceRoleKey
    expect((await rest('contact_submissions', { method: 'DELETE', key })).status).toBe(400)
    expect((await rest('contact_submissions', { method: 'PATCH', key, body: '{"is_read":true}' })).status).toBe(400)
  })

  it('filter values are data, never SQL; NUL is refused with 400', async () => {
    const before = await count()
    for (const value of [
      "x'); delete from public.contact_submissions; --",
      "\\'; select 1; --",
      "x''",
      '$$; drop table public.user_roles; $$',
    ]) {
      const response = await rest(`contact_submissions?select=name&name=eq.${encodeURIComponent(value)}`, {
        key: test.server.serviceRoleKey,
      })
      expect(response.status, value).toBe(200)
      expect(await response.json()).toEqual([])
    }
    expect(await count()).toBe(before)
    expect((await test.stored(`select count(*)::int as n from pg_tables where tablename = 'user_roles'`))[0].n).toBe(1)
    const nul = await rest('contact_submissions?name=eq.a%00b', { key: test.server.serviceRoleKey })
    expect(nul.status).toBe(400)
  })

  it('TRACE on a function or a table: 405', async () => {
    const anon = { apikey: test.server.anonKey, Authorization: `Bearer ${test.server.anonKey}` }
    const { status, body } = await rawRequest(test.server.url, 'TRACE', '/functions/v1/send-contact-email', anon)
    expect(status).toBe(405)
    expect(body).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'Method TRACE is not allowed' })
    expect((await rawRequest(test.server.url, 'TRACE', '/rest/v1/contact_submissions', anon)).status).toBe(405)
  })

  it('survives a burst of garbage requests', async () => {
    const garbage = [
      '\u0000',
      '[',
      '{"a":',
      'null',
      '1',
      '"x"',
      '[1,2]',
      '{"name":{"$gt":""}}',
      '{"__proto__":{"x":1}}',
    ]
    const statuses = await Promise.all(
      garbage.map((body) => rest('contact_submissions', { method: 'POST', body }).then((response) => response.status)),
    )
    for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400)
    for (const status of statuses) expect(status).toBeLessThan(500)
    expect((await fetch(`${test.server.url}/auth/v1/health`)).status).toBe(200)
  })

  it('still answers normally afterwards', async () => {
    expect((await fetch(`${test.server.url}/auth/v1/health`)).status).toBe(200)
    expect((await rest('contact_submissions', { method: 'POST', body: JSON.stringify(VALID_ROW) })).status).toBe(201)
  })
})

describe('the REST API reads as PostgREST does', () => {
  it('supports count=exact, HEAD, ranges, filters and single objects like PostgREST', async () => {
    const service = test.service()
    const rows = Array.from({ length: 7 }, (_, i) => ({
      ...VALID_ROW,
      name: `Range ${i}`,
      phone: i % 2 ? null : '0102030405',
    }))
    await service.from('contact_submissions').insert(rows)
    const page = await service
      .from('contact_submissions')
      .select('name', { count: 'exact' })
      .like('name', 'Range*')
      .order('name')
      .range(2, 4)
    expect(page.status).toBe(206)
    expect(page.count).toBe(7)
    expect(page.data).toEqual([{ name: 'Range 2' }, { name: 'Range 3' }, { name: 'Range 4' }])
    const head = await service
      .from('contact_submissions')
      .select('*', { count: 'exact', head: true })
      .is('phone', null)
      .like('name', 'Range*')
    expect(head.count).toBe(3)
    const inList = await service
      .from('contact_submissions')
      .select('name')
      .in('name', ['Range 1', 'Range 6', 'missing'])
      .order('name', { ascending: false })
    expect(inList.data).toEqual([{ name: 'Range 6' }, { name: 'Range 1' }])
    const single = await service.from('contact_submissions').select('name').eq('name', 'Range 3').single()
    expect(single.data).toEqual({ name: 'Range 3' })
    const notSingle = await service.from('contact_submissions').select('name').like('name', 'Range*').single()
    expect(notSingle.status).toBe(406)
    expect(notSingle.error?.code).toBe('PGRST116')
    const negated = await service
      .from('contact_submissions')
      .select('name', { count: 'exact', head: true })
      .like('name', 'Range*')
      .not('phone', 'is', null)
    expect(negated.count).toBe(4)
  })
})
