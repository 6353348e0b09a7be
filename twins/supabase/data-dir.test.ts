import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestTwin } from './test-twin.ts'

/*
 * The Supabase twin on disk (`dataDir`): `npm start` keeps its database in .data/supabase, which a
 * fresh clone does not have yet. What a visitor sent through the API is still there after a restart.
 */

// A table anyone may write to and no visitor may read, as a contact form's.
const MIGRATION = `
create table public.messages (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default now()
);
alter table public.messages enable row level security;
revoke all on public.messages from anon, authenticated;
grant insert (body) on public.messages to anon;
create policy anyone_sends on public.messages for insert to anon with check (true);
`
const files = { 'migrations/20260101000000_messages.sql': MIGRATION }

describe('the Supabase twin on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'supabase-twin-data-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('creates its data folder and its parents, and keeps rows across a restart', async () => {
    const dataDir = join(root, 'fresh-clone', '.data', 'supabase')
    const first = await startTestTwin({ files, dataDir })
    try {
      const response = await fetch(`${first.server.url}/rest/v1/messages`, {
        method: 'POST',
        headers: { ...first.anon, 'Content-Type': 'application/json' },
        body: JSON.stringify({ body: 'Stored before the restart.' }),
      })
      expect(response.status).toBe(201)
    } finally {
      await first.close()
    }
    // The same migrations in the project: already applied, not run again over the stored rows.
    const second = await startTestTwin({ files, dataDir })
    try {
      const { rows } = await second.server.database.db.query<{ body: string }>(
        'select body from public.messages order by id',
      )
      expect(rows.map((row) => row.body)).toEqual(['Stored before the restart.'])
    } finally {
      await second.close()
    }
  })
})
