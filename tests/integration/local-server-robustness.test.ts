import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '@/supabase/local/http-utils'
import { startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

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
