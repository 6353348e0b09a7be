import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_LOGIC_TREE_DEPTH } from './postgrest-query.ts'
import { startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * PostgREST's URL grammar at its edges: a logic tree (or=, and=, not.or=) nested past what the twin
 * walks is a parse error in PostgREST's shape, never a stack overflow answered 500.
 */

// A row policy, as the site's tables have: with one, a tree 2,000 deep overflowed PGlite's stack.
const MIGRATION = `
create table public.notes (id integer primary key, body text not null);
alter table public.notes enable row level security;
create policy anyone_reads on public.notes for select to anon using (true);
create policy anyone_deletes on public.notes for delete to anon using (true);
grant select, delete on public.notes to anon;
insert into public.notes values (1, 'kept');
`

let twin: TestTwin
beforeAll(async () => {
  twin = await startTestTwin({ files: { 'migrations/20260101000000_notes.sql': MIGRATION } })
})
afterAll(() => twin.close())

/** `(or(or(…id.eq.1…)))`: `depth` parentheses deep, the outer ones the parameter's own. */
const tree = (depth: number, group = 'or') => `(${`${group}(`.repeat(depth - 1)}id.eq.1${')'.repeat(depth - 1)})`

async function rest(method: string, query: string) {
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
      await rest('GET', `or=${tree(MAX_LOGIC_TREE_DEPTH + 1)}`),
      await rest('GET', `or=${tree(2000)}`),
      await rest('GET', `and=${tree(2000, 'and')}`),
      await rest('GET', `not.or=${tree(1500, 'not.and')}`),
      await rest('DELETE', `or=${tree(2000)}`),
    ]
    expect(attempts).toEqual(attempts.map(() => ({ status: 400, body: refused })))
    // Quoted values may hold parentheses of their own: they are text, not depth.
    const quoted = await rest('GET', `or=(id.eq.1,body.eq."${'('.repeat(500)}")`)
    expect(quoted).toEqual({ status: 200, body: [{ id: 1, body: 'kept' }] })
    expect(await rest('GET', `or=${tree(MAX_LOGIC_TREE_DEPTH)}`)).toEqual({
      status: 200,
      body: [{ id: 1, body: 'kept' }],
    })
  })
})
