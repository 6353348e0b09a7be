import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchInboxPage, setFollowUp } from '@/lib/admin/inbox-api'
import { fetchInboxOverview } from '@/lib/admin/inbox-overview'
import { signedInUser, startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

/*
 * The inbox keeps the site's promise (migration 20261229100000): follow-up states only an administrator
 * changes, with who and when recorded by the database; the overview it computes; the morning reminder's
 * claim; retention counting an answer as an exchange.
 */

let test: TestSupabase
let admin: Awaited<ReturnType<typeof signedInUser>>
let member: Awaited<ReturnType<typeof signedInUser>>
const sql = (query: string) => test.server.database.db.query<Record<string, unknown>>(query)
const exec = (statements: string) => test.server.database.db.exec(statements)

/** Stores a message as if sent `hoursAgo` hours ago; returns its id. */
async function message(hoursAgo: number, fields: Record<string, unknown> = {}): Promise<string> {
  const { data, error } = await test
    .service()
    .from('contact_submissions')
    .insert({ ...VALID_ROW, email: `m${Math.random().toString(36).slice(2)}@example.fr`, ...fields })
    .select('id')
    .single()
  if (error) throw error
  await sql(`update public.contact_submissions set created_at = now() - interval '${hoursAgo} hours'
             where id = '${data.id}'`)
  return data.id as string
}
const row = async (id: string) =>
  (
    await sql(`select follow_up, answered_at, follow_up_changed_at, follow_up_changed_by, is_read
              from public.contact_submissions where id = '${id}'`)
  ).rows[0]

beforeAll(async () => {
  test = await startTestSupabase({ contactRateLimit: 10_000 })
  admin = await signedInUser(test, 'admin@example.fr', { admin: true })
  member = await signedInUser(test, 'member@example.fr')
})
afterAll(() => test.close())

describe('follow-up states', () => {
  it('an administrator moves a message; the database records when, by whom and the answer’s time', async () => {
    const id = await message(30)
    expect(await row(id)).toMatchObject({ follow_up: 'new', answered_at: null, is_read: false })
    await setFollowUp(admin.client, id, 'in_progress')
    expect(await row(id)).toMatchObject({ follow_up: 'in_progress', follow_up_changed_by: admin.userId, is_read: true })
    await setFollowUp(admin.client, id, 'answered')
    const answered = await row(id)
    expect(answered.answered_at).toBeInstanceOf(Date)
    // Archived, it keeps its answer's time; undone, the answer is forgotten.
    await setFollowUp(admin.client, id, 'archived')
    expect((await row(id)).answered_at).toEqual(answered.answered_at)
    await setFollowUp(admin.client, id, 'answered')
    expect((await row(id)).answered_at).toEqual(answered.answered_at)
    await setFollowUp(admin.client, id, 'new')
    expect(await row(id)).toMatchObject({ follow_up: 'new', answered_at: null })
  })

  it('nobody else changes it, and nobody writes the answer’s time or who by hand', async () => {
    const id = await message(30)
    const anon = await test.anon().from('contact_submissions').update({ follow_up: 'answered' }).eq('id', id).select()
    expect(anon.error?.code).toBe('42501')
    const stranger = await member.client
      .from('contact_submissions')
      .update({ follow_up: 'answered' })
      .eq('id', id)
      .select()
    expect(stranger.data).toEqual([])
    for (const forged of [{ answered_at: '2020-01-01T00:00:00Z' }, { follow_up_changed_by: member.userId }]) {
      const { error } = await admin.client.from('contact_submissions').update(forged).eq('id', id)
      expect(error?.code).toBe('42501')
    }
    const invalid = await admin.client.from('contact_submissions').update({ follow_up: 'done' }).eq('id', id)
    expect(invalid.error?.code).toBe('23514')
    // A visitor's insert cannot start a message answered.
    const inserted = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, follow_up: 'answered' })
    expect(inserted.error?.code).toBe('42501')
    expect(await row(id)).toMatchObject({ follow_up: 'new', answered_at: null })
  })

  it('the list: archived ones out by default, « À répondre » oldest first, the overdue counted over all', async () => {
    await sql(`delete from public.contact_submissions`)
    const old = await message(50)
    const late = await message(30)
    await message(2)
    const archived = await message(40)
    await setFollowUp(admin.client, archived, 'archived')
    const open = await fetchInboxPage(admin.client, 0, '')
    expect(open.rows.map((item) => item.id)).not.toContain(archived)
    expect(open.total).toBe(3)
    expect(open.overdue).toBe(2)
    const waiting = await fetchInboxPage(admin.client, 0, '', { view: 'waiting' })
    expect(waiting.rows.slice(0, 2).map((item) => item.id)).toEqual([old, late])
    expect((await fetchInboxPage(admin.client, 0, '', { view: 'archived' })).rows.map((item) => item.id)).toEqual([
      archived,
    ])
    await setFollowUp(admin.client, late, 'answered')
    expect((await fetchInboxPage(admin.client, 0, '')).overdue).toBe(1)
  })
})

describe('the overview', () => {
  it('counts per week by language and package, and the answers of the last 30 days', async () => {
    await sql(`delete from public.contact_submissions`)
    const fast = await message(5, { locale: 'en', package: 'Advanced' })
    const slow = await message(60, { package: null })
    await message(30, { package: 'Essentiel' })
    await message(1)
    const spam = await message(48)
    await setFollowUp(admin.client, spam, 'archived')
    await setFollowUp(admin.client, fast, 'answered')
    await setFollowUp(admin.client, slow, 'answered')
    await exec(`update public.contact_submissions set answered_at = created_at + interval '2 hours' where id = '${fast}';
               update public.contact_submissions set answered_at = created_at + interval '30 hours' where id = '${slow}'`)
    const overview = await fetchInboxOverview(admin.client)
    expect(overview.weeks).toHaveLength(12)
    const counted = overview.weeks.reduce(
      (sum, week) => ({
        total: sum.total + week.total,
        en: sum.en + week.en,
        none: sum.none + (week.packages['-'] ?? 0),
      }),
      { total: 0, en: 0, none: 0 },
    )
    expect(counted).toEqual({ total: 5, en: 1, none: 1 })
    expect(overview.packages).toEqual(['Growth', 'Advanced', 'Essentiel'])
    // Owed: the two answered and the one 30 hours old (the archived spam and the 1-hour-old are not).
    expect(overview.answers).toEqual({ answered: 2, within_24h: 1, owed: 3, median_seconds: 16 * 3600 })
    expect(overview.overdue).toBe(1)
  })

  it('is for administrators only', async () => {
    const { error } = await member.client.rpc('contact_inbox_overview', { weeks: 12 })
    expect(error?.code).toBe('42501')
    expect((await test.anon().rpc('contact_inbox_overview', { weeks: 12 })).error).not.toBeNull()
  })
})

describe('the morning reminder', () => {
  const claim = async (at: string) =>
    (await sql(`select public.claim_contact_reminder('${at}') as claim`)).rows[0].claim as { outcome: string }

  it('is due within Paris’s 8 o’clock hour, winter and summer, once a day, and only when messages wait', async () => {
    await exec(`delete from public.contact_submissions; delete from private.contact_reminders`)
    expect(await claim('2026-11-30T07:05:00Z')).toEqual({ outcome: 'nothing_waits' })
    await sql(`insert into public.contact_submissions (name, email, message, created_at)
               values ('Zoé', 'zoe@example.fr', 'Un message qui attend.', '2026-11-28T09:00:00Z'),
                      ('Léa', 'lea@example.fr', 'Un message qui attend aussi.', '2026-11-29T06:00:00Z')`)
    expect(await claim('2026-11-30T06:55:00Z')).toEqual({ outcome: 'not_due' }) // 7:55 in Paris
    expect(await claim('2026-11-30T08:00:00Z')).toEqual({ outcome: 'not_due' }) // 9:00
    const due = await claim('2026-11-30T07:00:00Z')
    expect(due).toMatchObject({ outcome: 'claimed', day: '2026-11-30', total: 2 })
    expect((due as unknown as { messages: { name: string }[] }).messages.map((item) => item.name)).toEqual([
      'Zoé',
      'Léa',
    ])
    expect(await claim('2026-11-30T07:10:00Z')).toEqual({ outcome: 'already_sent' })
    await sql(`select public.release_contact_reminder('2026-11-30')`)
    expect(await claim('2026-11-30T07:20:00Z')).toMatchObject({ outcome: 'claimed' })
    // Summer time: 8:00 in Paris is 6:00 UTC.
    expect(await claim('2026-12-01T06:00:00Z')).toEqual({ outcome: 'not_due' })
    await sql(`update public.contact_submissions set created_at = '2027-06-28T09:00:00Z'`)
    expect(await claim('2027-07-01T06:00:00Z')).toMatchObject({ outcome: 'claimed', total: 2 })
  })

  it('is claimed by the service role alone; the function says when nothing is due', async () => {
    expect((await admin.client.rpc('claim_contact_reminder')).error).not.toBeNull()
    expect((await test.anon().rpc('claim_contact_reminder')).error).not.toBeNull()
    const call = (key: string) =>
      fetch(`${test.server.url}/functions/v1/send-contact-email`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, apikey: key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ reminder: 'due' }),
      })
    expect((await call(test.server.anonKey)).status).toBe(403)
    const answer = await call(test.server.serviceRoleKey)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({ ok: true, sent: expect.any(Boolean) })
  })
})

describe('retention', () => {
  it('counts an answer as the last exchange with an address', async () => {
    await sql(`delete from public.contact_submissions`)
    await sql(`insert into public.contact_submissions (name, email, message, created_at, follow_up, answered_at)
               values ('Ancien', 'ancien@example.fr', 'Un message ancien.', now() - interval '4 years', 'answered',
                       now() - interval '2 years'),
                      ('Oublié', 'oublie@example.fr', 'Un message ancien.', now() - interval '4 years', 'new', null)`)
    const purged = await test.service().rpc('purge_expired_contact_submissions')
    expect(purged.data).toMatchObject({ messages_deleted: 1 })
    expect((await sql(`select name from public.contact_submissions`)).rows).toEqual([{ name: 'Ancien' }])
  })
})
