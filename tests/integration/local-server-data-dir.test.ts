import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clientAddress, startTestSupabase, VALID_ROW } from './local-supabase'

// `npm start` keeps the local database in .data/supabase, which a fresh clone does not have yet.
describe('the local server on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'local-supabase-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('creates its data folder and its parents, and keeps messages across a restart', async () => {
    const dataDir = join(root, 'fresh-clone', '.data', 'supabase')
    const first = await startTestSupabase({ dataDir, trustedProxyHops: 2 })
    try {
      const { error } = await first
        .anon({ 'X-Forwarded-For': clientAddress() })
        .from('contact_submissions')
        .insert({ ...VALID_ROW, message: 'Stored before the restart.' })
      expect(error).toBeNull()
    } finally {
      await first.close()
    }
    const second = await startTestSupabase({ dataDir })
    try {
      const rows = await second.stored()
      expect(rows.map((row) => row.message)).toEqual(['Stored before the restart.'])
    } finally {
      await second.close()
    }
  })
})
