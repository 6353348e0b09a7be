import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_LOGIC_TREE_DEPTH } from './postgrest-query.ts'
import { MAX_BODY_BYTES } from './start-local-supabase.ts'
import { messageCount, postgrestShape, restRequest, ROW, startRestTwin } from './rest-api-fixture.ts'
import { rawRequest, type TestTwin } from './test-twin.ts'

/*
 * The Supabase twin's REST API (and the function gateway) over a small project: bad input answered
 * with a 4xx in PostgREST's shape and the server still serving afterwards, PostgREST's URL grammar at
 * its edges (a logic tree nested past what the twin walks is a parse error, never a stack overflow
 * answered 500), and reads as PostgREST answers them. What the twin does before any table is involved
 * (API key, Host, CORS): supabase-gateway.test.ts.
 */

let twin: TestTwin
beforeAll(async () => {
  twin = await startRestTwin()
})
afterAll(() => twin.close())

const rest = (path: string, init?: Parameters<typeof restRequest>[2]) => restRequest(twin, path, init)
const count = () => messageCount(twin)

describe('the REST API refuses bad requests with a 4xx and keeps running', () => {
  it('malformed JSON → 400 PGRST102', async () => {
    const response = await rest('messages', { method: 'POST', body: '{"name": "A",' })
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
    const column = await rest('messages?select=nope', { headers: twin.service })
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
      const response = await rest(`messages?${query}`, { headers: twin.service })
      expect(response.status, query).toBe(400)
      postgrestShape(await response.json(), query)
    }
  })

  it('oversized bodies → 413', async () => {
    const body = JSON.stringify({ ...ROW, message: 'x'.repeat(MAX_BODY_BYTES) })
    const response = await rest('messages', { method: 'POST', body })
    expect(response.status).toBe(413)
  })

  it('an insert nested 8,000 levels deep: 413 (stack depth), nothing stored', async () => {
    const before = await count()
    for (const nested of ['{"a":'.repeat(8000) + '1' + '}'.repeat(8000), '['.repeat(8000) + ']'.repeat(8000)]) {
      const body = `{"name":${nested},"email":"a@b.fr","message":"Bonjour, un message."}`
      const response = await rest('messages', { method: 'POST', body })
      expect(response.status).toBe(413)
      const answer = await response.json()
      postgrestShape(answer)
      expect(answer.code).toBe('54001')
    }
    expect(await count()).toBe(before)
  })

  it('update or delete without a filter is refused, as pg-safeupdate does on Supabase', async () => {
    expect((await rest('messages', { method: 'DELETE', headers: twin.service })).status).toBe(400)
    expect((await rest('messages', { method: 'PATCH', headers: twin.service, body: '{"is_read":true}' })).status).toBe(
      400,
    )
  })

  it('filter values are data, never SQL; NUL is refused with 400', async () => {
    const before = await count()
    for (const value of [
      "x'); delete from public.messages; --",
      "\\'; select 1; --",
      "x''",
      '$$; drop table public.notes; $$',
    ]) {
      const response = await rest(`messages?select=name&name=eq.${encodeURIComponent(value)}`, {
        headers: twin.service,
      })
      expect(response.status, value).toBe(200)
      expect(await response.json()).toEqual([])
    }
    expect(await count()).toBe(before)
    const notes = await twin.server.database.db.query(`select 1 from pg_tables where tablename = 'notes'`)
    expect(notes.rows).toHaveLength(1)
    const nul = await rest('messages?name=eq.a%00b', { headers: twin.service })
    expect(nul.status).toBe(400)
  })

  it('TRACE on a function or a table: 405', async () => {
    const { status, body } = await rawRequest(twin.server.url, 'TRACE', '/functions/v1/echo', twin.anon)
    expect(status).toBe(405)
    expect(body).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'Method TRACE is not allowed' })
    expect((await rawRequest(twin.server.url, 'TRACE', '/rest/v1/messages', twin.anon)).status).toBe(405)
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
      garbage.map((body) => rest('messages', { method: 'POST', body }).then((response) => response.status)),
    )
    for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400)
    for (const status of statuses) expect(status).toBeLessThan(500)
    expect((await fetch(`${twin.server.url}/auth/v1/health`)).status).toBe(200)
  })

  it('still answers normally afterwards', async () => {
    expect((await fetch(`${twin.server.url}/auth/v1/health`)).status).toBe(200)
    expect((await rest('messages', { method: 'POST', body: JSON.stringify(ROW) })).status).toBe(201)
  })
})

/** `(or(or(…id.eq.1…)))`: `depth` parentheses deep, the outer ones the parameter's own. */
const tree = (depth: number, group = 'or') => `(${`${group}(`.repeat(depth - 1)}id.eq.1${')'.repeat(depth - 1)})`

async function notes(method: string, query: string) {
  const response = await fetch(`${twin.server.url}/rest/v1/notes?${query}`, { method, headers: twin.anon })
  const text = await response.text()
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null }
}

describe('logic trees nested past the limit', () => {
  it('answer 400 PGRST100 "failed to parse logic tree", reads and deletes alike; the limit itself still works', async () => {
    const refused = {
      code: 'PGRST100',
      details: `parentheses nested deeper than ${MAX_LOGIC_TREE_DEPTH} levels`,
      hint: null,
      message: expect.stringMatching(/^"failed to parse logic tree \(\(/),
    }
    const attempts = [
      await notes('GET', `or=${tree(MAX_LOGIC_TREE_DEPTH + 1)}`),
      await notes('GET', `or=${tree(2000)}`),
      await notes('GET', `and=${tree(2000, 'and')}`),
      await notes('GET', `not.or=${tree(1500, 'not.and')}`),
      await notes('DELETE', `or=${tree(2000)}`),
    ]
    expect(attempts).toEqual(attempts.map(() => ({ status: 400, body: refused })))
    // Quoted values may hold parentheses of their own: they are text, not depth.
    const quoted = await notes('GET', `or=(id.eq.1,body.eq."${'('.repeat(500)}")`)
    expect(quoted).toEqual({ status: 200, body: [{ id: 1, body: 'kept' }] })
    expect(await notes('GET', `or=${tree(MAX_LOGIC_TREE_DEPTH)}`)).toEqual({
      status: 200,
      body: [{ id: 1, body: 'kept' }],
    })
  })
})

describe('the REST API reads as PostgREST does', () => {
  /** A read as the service role, as supabase-js sends it; `count` is what Content-Range says after the slash. */
  async function read(query: string, { method = 'GET', headers = {} as Record<string, string> } = {}) {
    const response = await fetch(`${twin.server.url}/rest/v1/messages?${query}`, {
      method,
      headers: { ...twin.service, ...headers },
    })
    const text = await response.text()
    const total = response.headers.get('content-range')?.split('/')[1]
    return {
      status: response.status,
      count: total === undefined || total === '*' ? null : Number(total),
      body: text ? (JSON.parse(text) as unknown) : null,
    }
  }
  const exact = { Prefer: 'count=exact' }

  it('supports count=exact, HEAD, ranges, filters and single objects like PostgREST', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({
      ...ROW,
      name: `Range ${i}`,
      phone: i % 2 ? null : '0102030405',
    }))
    const inserted = await rest('messages', { method: 'POST', headers: twin.service, body: JSON.stringify(rows) })
    expect(inserted.status).toBe(201)
    // .select('name', { count: 'exact' }).like('name', 'Range*').order('name').range(2, 4)
    const page = await read('select=name&name=like.Range*&order=name.asc&offset=2&limit=3', { headers: exact })
    expect(page).toEqual({
      status: 206,
      count: 7,
      body: [{ name: 'Range 2' }, { name: 'Range 3' }, { name: 'Range 4' }],
    })
    // .select('*', { count: 'exact', head: true }).is('phone', null).like('name', 'Range*')
    const head = await read('select=*&phone=is.null&name=like.Range*', { method: 'HEAD', headers: exact })
    expect([head.count, head.body]).toEqual([3, null])
    // .in('name', ['Range 1', 'Range 6', 'missing']).order('name', { ascending: false })
    const inList = await read(`select=name&name=in.${encodeURIComponent('(Range 1,Range 6,missing)')}&order=name.desc`)
    expect(inList.body).toEqual([{ name: 'Range 6' }, { name: 'Range 1' }])
    // .single()
    const object = { Accept: 'application/vnd.pgrst.object+json' }
    const single = await read('select=name&name=eq.Range%203', { headers: object })
    expect([single.status, single.body]).toEqual([200, { name: 'Range 3' }])
    const notSingle = await read('select=name&name=like.Range*', { headers: object })
    expect(notSingle.status).toBe(406)
    expect(notSingle.body).toMatchObject({ code: 'PGRST116' })
    // .not('phone', 'is', null)
    const negated = await read('select=name&name=like.Range*&phone=not.is.null', { method: 'HEAD', headers: exact })
    expect(negated.count).toBe(4)
  })
})
