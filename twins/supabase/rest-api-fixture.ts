import { expect } from 'vitest'
import { startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * The small project the REST API's tests run the Supabase twin over (rest-api.test.ts,
 * rest-api-headers.test.ts): its tables, policies and functions, and the requests they make.
 */

// Row policies, as a site's tables have: with one, a tree 2,000 deep overflowed PGlite's stack.
// `notes`: anyone reads and deletes. `messages`: a contact form's, which visitors may only add to
// (their columns only), and only the service role reads and changes.
export const MIGRATION = `
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
export const FUNCTION = `export default async function handler(request: Request): Promise<Response> {
  return new Response(JSON.stringify({ method: request.method }), { headers: { 'Content-Type': 'application/json' } })
}
`

export const ROW = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '+33 6 12 34 56 78',
  message: 'Bonjour, un devis ?',
}

/** The twin over that project, on a free port. */
export const startRestTwin = () =>
  startTestTwin({
    files: { 'migrations/20260101000000_tables.sql': MIGRATION, 'functions/echo/handler.ts': FUNCTION },
  })

/** A request to /rest/v1/<path>, as the anon key unless headers say otherwise. */
export function restRequest(
  twin: TestTwin,
  path: string,
  { headers = twin.anon, ...init }: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
) {
  return fetch(`${twin.server.url}/rest/v1/${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...headers },
  })
}

/** The messages really stored (as the superuser sees them). */
export const messageCount = async (twin: TestTwin) =>
  (await twin.server.database.db.query<{ n: number }>('select count(*)::int as n from public.messages')).rows[0].n

/** PostgREST's error shape: exactly these four keys. */
export const postgrestShape = (body: Record<string, unknown>, what?: string) =>
  expect(Object.keys(body).sort(), what).toEqual(['code', 'details', 'hint', 'message'])
