import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { targets, type Sql } from './database-targets'
import { startTestSupabase, type TestSupabase } from './local-supabase'

/*
 * The retention the privacy policy promises, enforced by the database (migration contact_retention):
 * every message of an address whose most recent message is older than three years is deleted; a
 * message exactly three years old is kept. On PGlite and, in CI, PostgreSQL 15.
 */

type Purge = { messages_deleted: number; addresses_deleted: number; retention: string }

const message = (email: string, age: string) =>
  `insert into public.contact_submissions (name, email, message, created_at)
   values ('Camille Martin', '${email}', 'Bonjour, un message pour l''agence.', now() - interval '${age}')`

describe.each(targets)('retention on $name', (target) => {
  let db: Sql
  beforeAll(async () => {
    db = await target.open()
  })
  afterAll(() => db.close())

  const purge = async () =>
    (await db.query<{ result: Purge }>('select public.purge_expired_contact_submissions() as result'))[0].result
  const stored = async () =>
    (await db.query<{ email: string }>('select email from public.contact_submissions order by email, created_at')).map(
      ({ email }) => email,
    )
  /** Inside one transaction, so that now() is the same instant for the rows and for the purge. */
  const atOnce = async (statements: string[]) => {
    await db.query('begin')
    try {
      for (const statement of statements) await db.query(statement)
      const result = await purge()
      await db.query('commit')
      return result
    } catch (error) {
      await db.query('rollback')
      throw error
    }
  }

  it('erases an address not heard from in 3 years and 2 days; keeps one also heard from 10 days ago, and yesterday’s', async () => {
    await db.query('delete from public.contact_submissions')
    await db.query(message('gone@example.fr', '3 years 2 days'))
    await db.query(message('returning@example.fr', '4 years'))
    await db.query(message('returning@example.fr', '10 days'))
    await db.query(message('recent@example.fr', '1 day'))
    expect(await purge()).toEqual({ messages_deleted: 1, addresses_deleted: 1, retention: '3 years' })
    expect(await stored()).toEqual(['recent@example.fr', 'returning@example.fr', 'returning@example.fr'])
    // A second run finds nothing more.
    expect(await purge()).toMatchObject({ messages_deleted: 0, addresses_deleted: 0 })
  })

  it('keeps a message exactly 3 years old; one a second older goes', async () => {
    await db.query('delete from public.contact_submissions')
    const result = await atOnce([
      message('exact@example.fr', '3 years'),
      message('older@example.fr', '3 years 1 second'),
    ])
    expect(result).toMatchObject({ messages_deleted: 1, addresses_deleted: 1 })
    expect(await stored()).toEqual(['exact@example.fr'])
  })

  it('treats Camille@Example.fr and camille@example.fr as one address', async () => {
    await db.query('delete from public.contact_submissions')
    await db.query(message('Camille@Example.fr', '5 years'))
    await db.query(message('camille@example.fr', '2 months'))
    expect(await purge()).toMatchObject({ messages_deleted: 0, addresses_deleted: 0 })
    expect(await stored()).toHaveLength(2)
    await db.query(`update public.contact_submissions set created_at = now() - interval '4 years'`)
    expect(await purge()).toMatchObject({ messages_deleted: 2, addresses_deleted: 1 })
    expect(await stored()).toEqual([])
  })

  it('records each run with its counts and period, and nothing personal', async () => {
    await db.query('delete from private.contact_purge_runs')
    await db.query(message('Someone.Private@Example.fr', '6 years'))
    await db.query(message('someone.private@example.fr', '7 years'))
    await purge()
    const runs = await db.query<Record<string, unknown>>(
      `select messages_deleted, addresses_deleted, retention::text as retention, row_to_json(run)::text as whole
       from private.contact_purge_runs run`,
    )
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ messages_deleted: 2, addresses_deleted: 1, retention: '3 years' })
    expect(String(runs[0].whole)).not.toMatch(/@|private|someone/i)
    const columns = await db.query<{ column_name: string }>(
      `select column_name from information_schema.columns
       where table_schema = 'private' and table_name = 'contact_purge_runs' order by ordinal_position`,
    )
    expect(columns.map((column) => column.column_name)).toEqual([
      'id',
      'ran_at',
      'messages_deleted',
      'addresses_deleted',
      'retention',
    ])
  })

  it('follows the period set in private.settings, and refuses one that is not positive', async () => {
    await db.query('delete from public.contact_submissions')
    await db.query(message('short@example.fr', '2 days'))
    await db.query(`update private.settings set value = '1 day' where key = 'contact_retention_period'`)
    try {
      expect(await purge()).toMatchObject({ messages_deleted: 1, retention: '1 day' })
      await db.query(`update private.settings set value = '0 days' where key = 'contact_retention_period'`)
      await expect(purge()).rejects.toThrow(/must be positive/)
    } finally {
      await db.query(`update private.settings set value = '3 years' where key = 'contact_retention_period'`)
    }
  })

  it('only the service role may run it', async () => {
    for (const role of ['anon', 'authenticated']) {
      await db.query('begin')
      try {
        await db.query(`set local role ${role}`)
        await expect(purge()).rejects.toMatchObject({ code: '42501' })
      } finally {
        await db.query('rollback')
      }
    }
    await db.query('begin')
    try {
      await db.query('set local role service_role')
      expect(await purge()).toMatchObject({ retention: '3 years' })
    } finally {
      await db.query('rollback')
    }
  })

  it('is scheduled daily with cron.schedule (the twin’s cron here, pg_cron on a hosted project)', async () => {
    expect(
      await db.query(
        `select schedule, command, active from cron.job where jobname = 'purge-expired-contact-submissions'`,
      ),
    ).toEqual([{ schedule: '17 3 * * *', command: 'select public.purge_expired_contact_submissions()', active: true }])
  })
})

describe('through the local Supabase twin', () => {
  let test: TestSupabase
  beforeAll(async () => {
    test = await startTestSupabase()
  })
  afterAll(() => test.close())

  it('ran the purge at start, as its cron does every job', async () => {
    const runs = await test.stored(
      `select status from cron.job_run_details
        where jobid = (select jobid from cron.job where jobname = 'purge-expired-contact-submissions')`,
    )
    expect(runs).toEqual([{ status: 'succeeded' }])
  })

  it('runs it for the service role over RPC (npm run messages:purge), and refuses a visitor', async () => {
    await test.server.database.db.exec(message('old@example.fr', '5 years'))
    const { data, error } = await test.service().rpc('purge_expired_contact_submissions')
    expect(error).toBeNull()
    expect(data).toEqual({ messages_deleted: 1, addresses_deleted: 1, retention: '3 years' })
    const refused = await test.anon().rpc('purge_expired_contact_submissions')
    expect([refused.status, refused.error?.code]).toEqual([401, '42501'])
  })
})
