import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_LOGIC_TREE_DEPTH } from './postgrest-query.ts'
import { MAX_BODY_BYTES } from './start-local-supabase.ts'
import { rawRequest, startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * The Supabase twin's REST API (and the function gateway) over a small project: bad input answered
 * with a 4xx in PostgREST's shape and the server still serving afterwards, PostgREST's URL grammar at
 * its edges (a logic tree nested past what the twin walks is a parse error, never a stack overflow
 * answered 500), and reads as PostgREST answers them. What the twin does before any table is involved
 * (API key, Host, CORS): supabase-gateway.test.ts.
 */

// Row policies, as a site's tables have: with one, a tree 2,000 deep overflowed PGlite's stack.
// `notes`: anyone reads and deletes. `messages`: a contact form's, which visitors may only add to
// (their columns only), and only the service role reads and changes.
const MIGRATION = `
create table public.notes (id integer primary key, body text not null);
alter table public.notes enable row level security;
create policy anyone_reads on public.notes for select to anon using (true);
create policy anyone_deletes on public.notes for delete to anon using (true);
grant select, delete on public.notes to anon;
insert into public.notes values (1, 'kept');

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  phone text,
  message text not null check (char_length(message) between 10 and 1000),
  is_read boolean not null default false,
  created_at timestamptz not null default now()
);
alter table public.messages enable row level security;
revoke all on public.messages from anon, authenticated;
grant insert (name, email, phone, message) on public.messages to anon;
create policy visitors_send on public.messages for insert to anon with check (not is_read);

-- For the headers that change what a write does (Prefer, Accept): written as the service role.
create table public.items (id integer primary key, label text not null, qty integer default 7);
insert into public.items values (1, 'one', 1), (2, 'two', 2), (3, 'three', 3);
create table public.logbook (line text);
create function public.add_item(item_id integer) returns integer language sql as
  $$ insert into public.items (id, label) values (item_id, 'by rpc') returning id $$;

-- For RPC by GET and the table grammar on a function's rows: read-only (stable) functions.
create table public.fruits (id integer primary key, name text not null);
insert into public.fruits values (1, 'apple'), (2, 'apricot'), (3, 'avocado'), (4, 'banana');
create function public.fruits_named(prefix text) returns setof public.fruits language sql stable as
  $$ select * from public.fruits where name like prefix || '%' $$;
create function public.fruit_lengths(shortest integer) returns table (fruit text, letters integer)
  language sql stable as $$ select name, length(name) from public.fruits where length(name) >= shortest $$;
create function public.fruit_name(fruit_id integer) returns text language sql immutable as
  $$ select case fruit_id when 2 then 'apricot' else 'other' end $$;
`

// A function, for the gateway's answer to a method no function takes.
const FUNCTION = `export default async function handler(request: Request): Promise<Response> {
  return new Response(JSON.stringify({ method: request.method }), { headers: { 'Content-Type': 'application/json' } })
}
`

const ROW = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '+33 6 12 34 56 78',
  message: 'Bonjour, un devis ?',
}

let twin: TestTwin
beforeAll(async () => {
  twin = await startTestTwin({
    files: { 'migrations/20260101000000_tables.sql': MIGRATION, 'functions/echo/handler.ts': FUNCTION },
  })
})
afterAll(() => twin.close())

/** A request to /rest/v1/<path>, as the anon key unless headers say otherwise. */
function rest(
  path: string,
  { headers = twin.anon, ...init }: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
) {
  return fetch(`${twin.server.url}/rest/v1/${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...headers },
  })
}

const count = async () =>
  (await twin.server.database.db.query<{ n: number }>('select count(*)::int as n from public.messages')).rows[0].n

const postgrestShape = (body: Record<string, unknown>, what?: string) =>
  expect(Object.keys(body).sort(), what).toEqual(['code', 'details', 'hint', 'message'])

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

describe('the headers that change what a write does (Prefer, Accept)', () => {
  /** A request as the service role; the body parsed as JSON when it is JSON. */
  async function call(path: string, method: string, headers: Record<string, string> = {}, body?: unknown) {
    const response = await rest(path, {
      method,
      headers: { ...twin.service, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    let parsed: unknown = text || null
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // CSV stays text.
    }
    return { status: response.status, headers: response.headers, body: parsed as Record<string, unknown> | null }
  }
  const item = async (id: number) =>
    (await twin.server.database.db.query('select id, label, qty from public.items where id = $1', [id])).rows[0] ?? null
  const represent = 'return=representation'

  it('Prefer: tx=rollback answers as usual and commits nothing (POST, PATCH, DELETE, RPC)', async () => {
    const post = await call('items', 'POST', { Prefer: `${represent}, tx=rollback` }, { id: 50, label: 'dry' })
    expect([post.status, post.body]).toEqual([201, [{ id: 50, label: 'dry', qty: 7 }]])
    expect(post.headers.get('preference-applied')).toBe('return=representation, tx=rollback')
    expect(await item(50)).toBeNull()
    const patch = await call('items?id=eq.1', 'PATCH', { Prefer: 'tx=rollback, handling=strict' }, { label: 'x' })
    expect(patch.status).toBe(204)
    expect(patch.headers.get('preference-applied')).toBe('tx=rollback, handling=strict')
    const remove = await call('items?id=eq.2', 'DELETE', { Prefer: `${represent}, tx=rollback` })
    expect([remove.status, remove.body]).toEqual([200, [{ id: 2, label: 'two', qty: 2 }]])
    expect([await item(1), await item(2)]).toEqual([
      { id: 1, label: 'one', qty: 1 },
      { id: 2, label: 'two', qty: 2 },
    ])
    const rpc = await call('rpc/add_item', 'POST', { Prefer: 'tx=rollback' }, { item_id: 51 })
    expect([rpc.status, rpc.body, rpc.headers.get('preference-applied')]).toEqual([200, 51, 'tx=rollback'])
    expect(await item(51)).toBeNull()
  })

  it('Prefer: max-affected=N with handling=strict refuses a wider PATCH or DELETE (400 PGRST124), changing nothing', async () => {
    const strict = { Prefer: 'handling=strict, max-affected=1' }
    for (const [method, body] of [
      ['PATCH', { label: 'many' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await call('items?id=in.(1,2)', method, strict, body)
      expect([method, answer.status, answer.body]).toEqual([
        method,
        400,
        {
          code: 'PGRST124',
          message: 'Query result exceeds max-affected preference constraint',
          details: 'The query affects 2 rows',
          hint: null,
        },
      ])
    }
    expect([(await item(1))?.label, (await item(2))?.label]).toEqual(['one', 'two'])
    // Within the limit it runs; without handling=strict, PostgREST ignores it.
    expect((await call('items?id=eq.1', 'PATCH', strict, { qty: 1 })).status).toBe(204)
    const lenient = await call('items?id=in.(1,2)', 'PATCH', { Prefer: 'max-affected=1' }, { qty: 5 })
    expect(lenient.status).toBe(204)
    expect([(await item(1))?.qty, (await item(2))?.qty]).toEqual([5, 5])
  })

  it('Accept: application/vnd.pgrst.object+json on a write: one row → an object; otherwise 406 PGRST116 and rolled back', async () => {
    const object = { Accept: 'application/vnd.pgrst.object+json', Prefer: represent }
    const one = await call('items?select=id,label', 'POST', object, { id: 60, label: 'single' })
    expect([one.status, one.body]).toEqual([201, { id: 60, label: 'single' }])
    expect(one.headers.get('content-type')).toMatch(/^application\/vnd\.pgrst\.object\+json/)
    const two = await call('items', 'POST', object, [
      { id: 61, label: 'a' },
      { id: 62, label: 'b' },
    ])
    expect([two.status, two.body]).toEqual([
      406,
      {
        code: 'PGRST116',
        message: 'JSON object requested, multiple (or no) rows returned',
        details: 'The result contains 2 rows',
        hint: null,
      },
    ])
    expect([await item(61), await item(62)]).toEqual([null, null])
    const patched = await call('items?id=in.(1,2)', 'PATCH', object, { label: 'both' })
    expect([patched.status, patched.body?.code]).toEqual([406, 'PGRST116'])
    expect([(await item(1))?.label, (await item(2))?.label]).toEqual(['one', 'two'])
    const none = await call('items?id=eq.999', 'DELETE', object)
    expect([none.status, none.body?.details]).toEqual([406, 'The result contains 0 rows'])
    const removed = await call('items?id=eq.60&select=label', 'DELETE', object)
    expect([removed.status, removed.body]).toEqual([200, { label: 'single' }])
  })

  it('Prefer: missing=default with ?columns= gives a missing key its DEFAULT; without it, NULL', async () => {
    const rows = [
      { id: 70, label: 'defaulted' },
      { id: 71, label: 'given', qty: 3 },
    ]
    const withDefault = await call('items?columns=id,label,qty', 'POST', { Prefer: 'missing=default' }, rows)
    expect([withDefault.status, withDefault.headers.get('preference-applied')]).toEqual([201, 'missing=default'])
    expect([(await item(70))?.qty, (await item(71))?.qty]).toEqual([7, 3])
    const withNull = await call('items?columns=id,label,qty', 'POST', {}, [{ id: 72, label: 'null' }])
    expect(withNull.status).toBe(201)
    expect((await item(72))?.qty).toBeNull()
  })

  it('Prefer: count=exact on writes: Content-Range as PostgREST gives it', async () => {
    const range = (answer: { headers: Headers }) => answer.headers.get('content-range')
    const inserted = await call('items', 'POST', { Prefer: 'count=exact' }, [
      { id: 80, label: 'a' },
      { id: 81, label: 'b' },
    ])
    expect(range(inserted)).toBe('*/2')
    const insertedRep = await call('items', 'POST', { Prefer: `${represent}, count=exact` }, [{ id: 82, label: 'c' }])
    expect(range(insertedRep)).toBe('*/1')
    expect(range(await call('items', 'POST', {}, [{ id: 83, label: 'd' }]))).toBe('*/*')
    const patched = await call('items?id=in.(80,81)', 'PATCH', { Prefer: `${represent}, count=exact` }, { qty: 1 })
    expect(range(patched)).toBe('0-1/2')
    expect(range(await call('items?id=in.(80,81)', 'PATCH', { Prefer: 'count=exact' }, { qty: 2 }))).toBe('0-1/2')
    expect(range(await call('items?id=in.(80,81,82)', 'DELETE', {}))).toBe('0-2/*')
    expect(range(await call('items?id=eq.999', 'DELETE', { Prefer: 'count=exact' }))).toBe('*/0')
  })

  it('an upsert without on_conflict resolves on the primary key', async () => {
    const merged = await call('items', 'POST', { Prefer: `resolution=merge-duplicates, ${represent}` }, [
      { id: 3, label: 'merged' },
      { id: 90, label: 'new' },
    ])
    expect(merged.status).toBe(201)
    expect(merged.headers.get('preference-applied')).toBe('resolution=merge-duplicates, return=representation')
    expect([(await item(3))?.label, (await item(90))?.label]).toEqual(['merged', 'new'])
    const ignored = await call('items', 'POST', { Prefer: 'resolution=ignore-duplicates' }, { id: 3, label: 'ignored' })
    expect(ignored.status).toBe(201)
    expect((await item(3))?.label).toBe('merged')
    // A table without a primary key: a plain insert, as PostgREST does.
    expect((await call('logbook', 'POST', { Prefer: 'resolution=merge-duplicates' }, { line: 'x' })).status).toBe(201)
  })

  it("refuses the Prefer and Accept values it does not carry out, in PostgREST's shape", async () => {
    const notHere = (
      answer: { status: number; body: Record<string, unknown> | null },
      status: number,
      what: string,
    ) => {
      expect(answer.status, what).toBe(status)
      postgrestShape(answer.body!, what)
      expect(answer.body!.code, what).toBe('PGRST')
      expect(answer.body!.message, what).toMatch(/^not supported by the local Supabase server: /)
      expect(answer.body!.message, what).toContain(what)
    }
    notHere(await call('items?id=eq.1', 'GET', { Prefer: 'timezone=UTC' }), 400, 'timezone=UTC')
    notHere(await call('items?id=eq.1', 'PATCH', { Prefer: 'timezone=UTC' }, { qty: 9 }), 400, 'timezone=UTC')
    expect((await item(1))?.qty).toBe(5)
    notHere(await call('rpc/add_item', 'POST', { Prefer: 'params=single-object' }, { item_id: 91 }), 400, 'params')
    expect(await item(91)).toBeNull()
    notHere(await call('items', 'GET', { Accept: 'application/geo+json' }), 406, 'application/geo+json')
    notHere(
      await call(
        'items',
        'POST',
        { Accept: 'application/vnd.pgrst.object+json;nulls=stripped' },
        { id: 92, label: 'x' },
      ),
      406,
      'nulls=stripped',
    )
    notHere(await call('items?id=eq.1', 'DELETE', { Accept: 'application/vnd.pgrst.plan+json' }), 406, 'plan')
    notHere(await call('items', 'POST', { Accept: 'text/csv' }, { id: 93, label: 'x' }), 406, 'text/csv')
    notHere(
      await call('rpc/add_item', 'POST', { Accept: 'application/vnd.pgrst.object+json' }, { item_id: 94 }),
      406,
      'object',
    )
    expect([await item(1), await item(92), await item(93), await item(94)].slice(1)).toEqual([null, null, null])
    const unknown = await call('items', 'GET', { Accept: 'text/unknown' })
    expect([unknown.status, unknown.body]).toEqual([
      406,
      { code: 'PGRST107', message: 'None of these media types are available: text/unknown', details: null, hint: null },
    ])
    const strict = await call('items', 'GET', { Prefer: 'handling=strict, foo, count=sometimes' })
    expect([strict.status, strict.body]).toEqual([
      400,
      {
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: foo, count=sometimes',
        hint: null,
      },
    ])
    // Lenient (the default): unknown preferences change nothing, and are ignored as PostgREST ignores them.
    expect((await call('items?id=eq.1', 'GET', { Prefer: 'foo, handling=lenient' })).status).toBe(200)
  })

  it('still takes every Prefer and Accept value supabase-js sends', async () => {
    const everyday: Record<string, string>[] = [
      { Prefer: 'return=minimal' },
      { Prefer: 'return=headers-only' },
      { Prefer: 'return=representation,count=exact' },
      { Prefer: 'count=planned' },
      { Prefer: 'count=estimated' },
      { Prefer: 'missing=default,return=representation', Accept: 'application/json' },
      { Prefer: 'tx=commit', Accept: '*/*' },
      { Prefer: 'handling=lenient', Accept: 'application/json, text/plain;q=0.5' },
    ]
    let id = 100
    for (const headers of everyday) {
      const answer = await call('items?columns=id,label', 'POST', headers, { id: ++id, label: 'daily' })
      expect([JSON.stringify(headers), answer.status]).toEqual([JSON.stringify(headers), 201])
      expect(await item(id)).not.toBeNull()
    }
  })

  it('Accept: text/csv on GET answers CSV with a header row, as PostgREST writes it', async () => {
    const csv = await call('items?select=id,label,qty&id=in.(1,2,3)&order=id', 'GET', { Accept: 'text/csv' })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.body).toBe('id,label,qty\n1,one,5\n2,two,5\n3,merged,3')
  })
})

describe('RPC by GET, and filters on the rows a function returns (PostgREST 12)', () => {
  /** A request as the service role; the body parsed as JSON when there is one. */
  async function call(path: string, method = 'GET', body?: unknown) {
    const response = await rest(path, {
      method,
      headers: twin.service,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: (text ? JSON.parse(text) : null) as unknown }
  }

  it('GET takes the arguments from the query string and filters, selects, orders and pages the rows', async () => {
    expect(await call('rpc/fruits_named?prefix=a&id=gt.1&select=name&order=name.desc')).toEqual({
      status: 200,
      body: [{ name: 'avocado' }, { name: 'apricot' }],
    })
    expect(await call('rpc/fruits_named?prefix=a&order=id&limit=1&offset=1')).toEqual({
      status: 200,
      body: [{ id: 2, name: 'apricot' }],
    })
    // returns table (…): its columns filter too; an argument arrives as text, cast to the parameter's type.
    expect(await call('rpc/fruit_lengths?shortest=6&letters=lt.7&select=fruit&order=fruit')).toEqual({
      status: 200,
      body: [{ fruit: 'banana' }],
    })
    expect(await call('rpc/fruit_name?fruit_id=2')).toEqual({ status: 200, body: 'apricot' })
    const head = await rest('rpc/fruit_name?fruit_id=2', { method: 'HEAD', headers: twin.service })
    expect([head.status, await head.text()]).toEqual([200, ''])
  })

  it('POST applies the query string filters to the rows of the function its body calls', async () => {
    expect(await call('rpc/fruits_named?id=gt.1&select=name&order=name.desc', 'POST', { prefix: 'a' })).toEqual({
      status: 200,
      body: [{ name: 'avocado' }, { name: 'apricot' }],
    })
    expect(await call('rpc/fruits_named?or=(name.eq.apple,name.eq.banana)&select=id', 'POST', { prefix: '' })).toEqual({
      status: 200,
      body: [{ id: 1 }, { id: 4 }],
    })
  })

  it('answers a bad filter, a missing function or an unknown key as PostgREST does', async () => {
    const unknownColumn = await call('rpc/fruits_named?prefix=a&colour=eq.red')
    expect([unknownColumn.status, (unknownColumn.body as { code: string }).code]).toEqual([400, '42703'])
    const scalarFilter = await call('rpc/fruit_name?fruit_id=2&colour=eq.red')
    expect([scalarFilter.status, (scalarFilter.body as { code: string }).code]).toEqual([404, 'PGRST202'])
    const missing = await call('rpc/fruits_named')
    expect([missing.status, (missing.body as { code: string }).code]).toEqual([404, 'PGRST202'])
  })

  it('GET runs read-only: a function that writes is refused (405, 25006) and changes nothing', async () => {
    const refused = await call('rpc/add_item?item_id=60')
    expect(refused.status).toBe(405)
    postgrestShape(refused.body as Record<string, unknown>)
    expect((refused.body as { code: string }).code).toBe('25006')
    const row = await twin.server.database.db.query('select id from public.items where id = 60')
    expect(row.rows).toEqual([])
  })
})
