import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgrestShape, restRequest, startRestTwin } from './rest-api-fixture.ts'
import type { TestTwin } from './test-twin.ts'

/*
 * The Supabase twin's RPC (rpc-api.ts) as PostgREST 12 documents it: by GET with filters on the rows a
 * function returns, arguments read into their parameters' types (arrays, variadic), one unnamed JSON
 * parameter, and a refusal for what it does not carry out. Over the same small project as rest-api.test.ts.
 */

let twin: TestTwin
beforeAll(async () => {
  twin = await startRestTwin()
})
afterAll(() => twin.close())

const rest = (path: string, init?: Parameters<typeof restRequest>[2]) => restRequest(twin, path, init)

describe('RPC by GET, and filters on the rows a function returns (PostgREST 12)', () => {
  /** A request as the service role; the body parsed as JSON when there is one. */
  async function call(path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
    const response = await rest(path, {
      method,
      headers: { ...twin.service, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    const answer = { status: response.status, body: (text ? JSON.parse(text) : null) as unknown }
    // Not enumerable: the assertions compare status and body.
    return Object.defineProperty(answer, 'headers', { value: response.headers, enumerable: false }) as typeof answer & {
      headers: Headers
    }
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

  it('reads arguments into their types: a JSON array or a repeated key fills an array or variadic parameter', async () => {
    expect(await call('rpc/sum_all', 'POST', { n: [1, 2, 3] })).toEqual({ status: 200, body: 6 })
    expect(await call('rpc/sum_all?n=4&n=5')).toEqual({ status: 200, body: 9 })
    expect(await call('rpc/sum_all?n=4')).toEqual({ status: 200, body: 4 })
  })

  it('passes the whole body to a function of one unnamed json parameter', async () => {
    expect(await call('rpc/echo_json', 'POST', { any: ['shape', 1] })).toEqual({
      status: 200,
      body: { any: ['shape', 1] },
    })
  })

  it('refuses filters, select or paging on a result that is not a set of rows, rather than ignoring them', async () => {
    for (const path of ['rpc/fruit_ids?fruit_ids=gt.2', 'rpc/fruit_name?select=x', 'rpc/fruit_ids?limit=1']) {
      const refused = await call(path, 'POST', path.includes('fruit_name') ? { fruit_id: 2 } : {})
      expect([path, refused.status]).toEqual([path, 400])
      postgrestShape(refused.body as Record<string, unknown>, path)
      expect((refused.body as { message: string }).message).toMatch(/^not supported by the local Supabase server: /)
    }
    expect(await call('rpc/fruit_ids', 'POST', {})).toEqual({ status: 200, body: [1, 2, 3, 4] })
  })

  it('Prefer: count=exact gives the total of the rows before paging; max-affected (strict) refuses and rolls back', async () => {
    const counted = await call('rpc/fruits_named?prefix=a&order=id&limit=1', 'GET', undefined, {
      Prefer: 'count=exact',
    })
    expect([counted.body, counted.headers.get('content-range')]).toEqual([[{ id: 1, name: 'apple' }], '0-0/3'])
    const strict = { Prefer: 'handling=strict, max-affected=1, return=representation' }
    const refused = await call('rpc/relabel', 'POST', { prefix: 't' }, strict)
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([400, 'PGRST124'])
    const labels = await twin.server.database.db.query('select label from public.items order by id')
    expect(labels.rows).toEqual([{ label: 'one' }, { label: 'two' }, { label: 'three' }])
    const within = await call('rpc/relabel', 'POST', { prefix: 'o' }, strict)
    expect([within.status, within.body]).toEqual([200, [{ id: 1, label: 'one!', qty: 1 }]])
  })
})
