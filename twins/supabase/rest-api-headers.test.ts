import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgrestShape, restRequest, startRestTwin } from './rest-api-fixture.ts'
import type { TestTwin } from './test-twin.ts'

/*
 * The Supabase twin's REST API and RPC under the headers that change what a request does (Prefer,
 * Accept), as PostgREST 12 documents them: carried out, or refused in PostgREST's shape. Over the same
 * small project as rest-api.test.ts.
 */

let twin: TestTwin
beforeAll(async () => {
  twin = await startRestTwin()
})
afterAll(() => twin.close())

const rest = (path: string, init?: Parameters<typeof restRequest>[2]) => restRequest(twin, path, init)

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
    // Identity columns: one no object has takes its DEFAULT (even GENERATED ALWAYS); a by-default one, its sequence.
    const tickets = await call(
      'tickets?columns=id,label,rank&select=id,label,rank',
      'POST',
      {
        Prefer: `missing=default, ${represent}`,
      },
      [{ label: 'first' }, { rank: 10 }],
    )
    expect([tickets.status, tickets.body]).toEqual([
      201,
      [
        { id: 1, label: 'first', rank: 1 },
        { id: 2, label: 'untitled', rank: 10 },
      ],
    ])
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
    // Nothing inserted, only updated: 200, as PostgREST 12 answers (PR #2926).
    const updated = await call('items', 'POST', { Prefer: 'resolution=merge-duplicates' }, { id: 90, label: 'newer' })
    expect([updated.status, (await item(90))?.label]).toEqual([200, 'newer'])
    // A table without a primary key: a plain insert, as PostgREST does.
    expect((await call('logbook', 'POST', { Prefer: 'resolution=merge-duplicates' }, { line: 'x' })).status).toBe(201)
  })

  it('PATCH and DELETE with limit touch that many rows in the given order; without an order, refused; ?columns= writes those only', async () => {
    const patched = await call('items?id=in.(1,2)&order=id.desc&limit=1', 'PATCH', { Prefer: represent }, { qty: 8 })
    expect([patched.status, patched.body]).toEqual([200, [{ id: 2, label: 'two', qty: 8 }]])
    expect((await item(1))?.qty).not.toBe(8)
    const unordered = await call('items?id=in.(1,2)&limit=1', 'DELETE')
    expect([unordered.status, unordered.body?.code]).toEqual([400, 'PGRST109'])
    expect([await item(1), await item(2)].map((row) => row?.id)).toEqual([1, 2])
    await call('items?id=eq.2&columns=qty', 'PATCH', {}, { qty: 5, label: 'ignored' })
    expect(await item(2)).toEqual({ id: 2, label: 'two', qty: 5 })
  })

  it("Prefer: return=headers-only answers the new row's Location, by its primary key", async () => {
    const created = await call('items', 'POST', { Prefer: 'return=headers-only' }, { id: 95, label: 'located' })
    expect([created.status, created.body, created.headers.get('location')]).toEqual([201, null, '/items?id=eq.95'])
    // No primary key, no Location.
    expect(
      (await call('logbook', 'POST', { Prefer: 'return=headers-only' }, { line: 'y' })).headers.get('location'),
    ).toBeNull()
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
