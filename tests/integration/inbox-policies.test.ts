import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  deleteSubmission,
  deleteSubmissionsByEmail,
  fetchAllMatching,
  fetchInboxPage,
  isAdmin,
  PAGE_SIZE,
  setRead,
} from '@/lib/admin/inbox-api'
import { submissionsToCsv } from '@/lib/admin/submissions-csv'
import { signedInUser, startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

let test: TestSupabase
let admin: Awaited<ReturnType<typeof signedInUser>>
let member: Awaited<ReturnType<typeof signedInUser>>

beforeAll(async () => {
  test = await startTestSupabase({ contactRateLimit: 10_000 })
  // 120 messages, spread over distinct minutes so "newest first" is well defined.
  const rows = Array.from({ length: 120 }, (_, i) => ({
    ...VALID_ROW,
    name: `Client ${String(i).padStart(3, '0')}`,
    email: i % 10 === 0 ? 'repeat@example.fr' : `client${i}@example.fr`,
    message: i === 7 ? 'Besoin de textes pour la "refonte", avec 100% de clarté' : `Message numéro ${i} pour l'agence`,
  }))
  const { error } = await test.service().from('contact_submissions').insert(rows)
  if (error) throw error
  await test.server.database.db.exec(
    `update public.contact_submissions set created_at = now() - (substring(name from 8)::int * interval '1 minute')`,
  )
  admin = await signedInUser(test, 'admin@example.fr', { admin: true })
  member = await signedInUser(test, 'member@example.fr')
})
afterAll(() => test.close())

describe('who may read and manage messages', () => {
  it('recognises the admin and only the admin', async () => {
    expect(await isAdmin(admin.client, admin.userId)).toBe(true)
    expect(await isAdmin(member.client, member.userId)).toBe(false)
    // A user cannot see someone else's roles.
    expect(await isAdmin(member.client, admin.userId)).toBe(false)
  })

  it('the admin sees every message; a signed-in non-admin sees none and cannot change any', async () => {
    const all = await admin.client.from('contact_submissions').select('id', { count: 'exact', head: true })
    expect(all.count).toBe(120)
    const none = await member.client.from('contact_submissions').select('*')
    expect(none.data).toEqual([])
    const update = await member.client.from('contact_submissions').update({ is_read: true }).neq('name', '').select()
    expect(update.data).toEqual([])
    const remove = await member.client.from('contact_submissions').delete().neq('name', '').select()
    expect(remove.data).toEqual([])
    expect((await test.stored('select count(*)::int as n from public.contact_submissions where is_read'))[0].n).toBe(0)
    expect((await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n).toBe(120)
  })

  it('even an admin can only change is_read, not rewrite a message', async () => {
    const { error } = await admin.client
      .from('contact_submissions')
      .update({ message: 'Rewritten by someone' })
      .eq('email', 'client1@example.fr')
    expect(error?.code).toBe('42501')
  })

  it('a non-admin cannot grant themselves the admin role', async () => {
    const { error } = await member.client.from('user_roles').insert({ user_id: member.userId, role: 'admin' })
    expect(error?.code).toBe('42501')
    expect(await isAdmin(member.client, member.userId)).toBe(false)
  })
})

describe('inbox operations', () => {
  it('pages newest first with the total and the unread count', async () => {
    const first = await fetchInboxPage(admin.client, 0, '')
    expect(first.total).toBe(120)
    expect(first.unread).toBe(120)
    expect(first.rows).toHaveLength(PAGE_SIZE)
    expect(first.rows[0].name).toBe('Client 000')
    expect(first.rows[49].name).toBe('Client 049')
    const last = await fetchInboxPage(admin.client, 2, '')
    expect(last.rows.map((row) => row.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Client ${String(100 + i).padStart(3, '0')}`),
    )
  })

  it('searches name, email and message, with punctuation taken literally', async () => {
    expect((await fetchInboxPage(admin.client, 0, 'repeat@')).total).toBe(12)
    expect((await fetchInboxPage(admin.client, 0, 'client 011')).rows.map((row) => row.name)).toEqual(['Client 011'])
    expect((await fetchInboxPage(admin.client, 0, '"refonte", avec 100%')).rows.map((row) => row.name)).toEqual([
      'Client 007',
    ])
    expect((await fetchInboxPage(admin.client, 0, 'numéro 42 pour')).total).toBe(1)
    expect((await fetchInboxPage(admin.client, 0, 'zzz-nothing')).total).toBe(0)
    // % and _ are not wildcards in a search.
    expect((await fetchInboxPage(admin.client, 0, 'Client_00')).total).toBe(0)
    expect((await fetchInboxPage(admin.client, 0, 'Client%00')).total).toBe(0)
  })

  it('marks read and unread', async () => {
    const [row] = (await fetchInboxPage(admin.client, 0, 'Client 003')).rows
    await setRead(admin.client, row.id, true)
    expect((await fetchInboxPage(admin.client, 0, '')).unread).toBe(119)
    await setRead(admin.client, row.id, false)
    expect((await fetchInboxPage(admin.client, 0, '')).unread).toBe(120)
  })

  it('exports every matching message, beyond one page, as CSV', async () => {
    const rows = await fetchAllMatching(admin.client, 'Client 0')
    expect(rows).toHaveLength(100)
    const csv = submissionsToCsv(rows)
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(101)
    expect(csv).toContain('"Besoin de textes pour la ""refonte"", avec 100% de clarté"')
  })

  it('answers pages at and past the end as PostgREST does', async () => {
    const atEnd = await admin.client.from('contact_submissions').select('id', { count: 'exact' }).range(120, 129)
    expect([atEnd.status, atEnd.data, atEnd.count]).toEqual([206, [], 120])
    const pastEnd = await admin.client.from('contact_submissions').select('id', { count: 'exact' }).range(121, 130)
    expect([pastEnd.status, pastEnd.error?.code]).toEqual([416, 'PGRST103'])
    // The inbox turns both into an empty page with the current total, so it can step back.
    expect(await fetchInboxPage(admin.client, 2, 'Client 0')).toMatchObject({ rows: [], total: 100 })
    expect(await fetchInboxPage(admin.client, 5, '')).toMatchObject({ rows: [], total: 120, unread: 120 })
  })

  it('« Non notifiées » keeps the messages never notified, in the rows, the total and the export', async () => {
    await test.server.database.db.exec(
      `update public.contact_submissions set notification_status = 'sent', notified_at = now()
        where name in ('Client 010', 'Client 011', 'Client 012')`,
    )
    const all = await fetchInboxPage(admin.client, 0, 'Client 01')
    expect(all.total).toBe(10)
    expect(all.rows.find((row) => row.name === 'Client 010')).toMatchObject({ notification_status: 'sent' })
    const unnotified = await fetchInboxPage(admin.client, 0, 'Client 01', { unnotifiedOnly: true })
    expect(unnotified.total).toBe(7)
    expect(unnotified.rows.every((row) => row.notified_at === null)).toBe(true)
    expect((await fetchInboxPage(admin.client, 0, '', { unnotifiedOnly: true })).total).toBe(117)
    expect(await fetchAllMatching(admin.client, 'Client 01', { unnotifiedOnly: true })).toHaveLength(7)
    // A page past the end of the filtered list comes back empty with the filtered total.
    expect(await fetchInboxPage(admin.client, 3, '', { unnotifiedOnly: true })).toMatchObject({ rows: [], total: 117 })
  })

  it('exports a whole number of 1,000-row chunks without asking past the end', async () => {
    const bulk = Array.from({ length: 880 }, (_, i) => ({ ...VALID_ROW, name: `Bulk ${i}`, email: 'bulk@example.fr' }))
    const { error } = await test.service().from('contact_submissions').insert(bulk)
    if (error) throw error
    expect(await fetchAllMatching(admin.client, '')).toHaveLength(1000)
    expect(await deleteSubmissionsByEmail(admin.client, 'bulk@example.fr')).toBe(880)
  })

  it('deletes one message, then every message of one address', async () => {
    const [row] = (await fetchInboxPage(admin.client, 0, 'Client 005')).rows
    await deleteSubmission(admin.client, row.id)
    expect((await fetchInboxPage(admin.client, 0, '')).total).toBe(119)
    const removed = await deleteSubmissionsByEmail(admin.client, 'repeat@example.fr')
    expect(removed).toBe(12)
    expect((await fetchInboxPage(admin.client, 0, 'repeat@')).total).toBe(0)
    expect((await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n).toBe(107)
  })
})
