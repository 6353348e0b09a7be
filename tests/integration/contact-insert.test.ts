import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientAddress, startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'

let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase({ contactRateLimit: 1000 })
})
afterAll(() => test.close())

async function count() {
  return (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n as number
}

describe('contact_submissions insert (anon, as the forms do it)', () => {
  it('stores a valid message, trimmed, with the chosen package and defaults', async () => {
    const before = await count()
    const { error, status } = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, name: '  Camille Martin \u00a0', message: `\n${VALID_ROW.message}  ` })
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(await count()).toBe(before + 1)
    const [row] = await test.stored(
      `select * from public.contact_submissions where email = '${VALID_ROW.email}' order by created_at desc limit 1`,
    )
    expect(row).toMatchObject({
      name: 'Camille Martin',
      message: VALID_ROW.message,
      phone: VALID_ROW.phone,
      package: 'Growth',
      locale: 'fr',
      is_read: false,
    })
    expect(String(row.id)).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('stores an empty phone and package as null', async () => {
    const { error } = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, email: 'empty@example.fr', phone: '   ', package: '' })
    expect(error).toBeNull()
    const [row] = await test.stored(
      `select phone, package from public.contact_submissions where email = 'empty@example.fr'`,
    )
    expect(row).toEqual({ phone: null, package: null })
  })

  it('stores a message sent again with its id once; the second send is refused as a copy (lib/contact/submit-contact.ts)', async () => {
    const email = 'twice@example.fr'
    const send = (id: string) =>
      test
        .anon()
        .from('contact_submissions')
        .insert({ ...VALID_ROW, email, id })
    const id = '6f1c7a52-3b8e-4d0a-9c41-2e5b7d9f0a13'
    const first = await send(id)
    const again = await send(id)
    expect([first.error, first.status]).toEqual([null, 201])
    expect([again.status, again.error?.code, again.error?.message]).toEqual([
      409,
      '23505',
      'duplicate key value violates unique constraint "contact_submissions_pkey"',
    ])
    const stored = async () =>
      (await test.stored(`select count(*)::int as n from public.contact_submissions where email = '${email}'`))[0].n
    expect(await stored()).toBe(1)
    // Another id is another message, even with the same words (sent again on purpose, after a success).
    expect((await send('0b9e4f3d-7c2a-4e61-8d55-1a6c3b2e9f70')).error).toBeNull()
    expect(await stored()).toBe(2)
  })

  const violations: [string, Record<string, unknown>, string][] = [
    ['name too short after trimming', { name: ' A ' }, 'contact_submissions_name_check'],
    ['name too long', { name: 'N'.repeat(101) }, 'contact_submissions_name_check'],
    ['email without a domain dot', { email: 'camille@example' }, 'contact_submissions_email_check'],
    ['email with a space', { email: 'cam ille@example.fr' }, 'contact_submissions_email_check'],
    ['email too long', { email: `${'a'.repeat(250)}@ex.fr` }, 'contact_submissions_email_check'],
    ['phone too long', { phone: '0'.repeat(21) }, 'contact_submissions_phone_check'],
    ['message too short', { message: 'Trop cour' }, 'contact_submissions_message_check'],
    [
      'message of only spaces and no-break spaces',
      { message: ' \u00a0'.repeat(20) },
      'contact_submissions_message_check',
    ],
    ['message too long', { message: 'm'.repeat(1001) }, 'contact_submissions_message_check'],
    ['package too long', { package: 'p'.repeat(101) }, 'contact_submissions_package_check'],
    ['a language the site does not have', { locale: 'de' }, 'contact_submissions_locale_check'],
    [
      '101 characters outside the BMP (counted as characters, as zod does)',
      { name: '😀'.repeat(101) },
      'contact_submissions_name_check',
    ],
    ['a direction override in the name', { name: 'Bob \u202egnp.exe' }, 'contact_submissions_name_visible_check'],
    [
      'a zero-width space in the email',
      { email: 'camille\u200b@example.fr' },
      'contact_submissions_email_visible_check',
    ],
    ['a zero-width space inside the name', { name: 'Bob\u200bSmith' }, 'contact_submissions_name_visible_check'],
    [
      'a left-to-right isolate in the email',
      { email: 'bob\u2066@example.fr' },
      'contact_submissions_email_visible_check',
    ],
  ]
  for (const [label, change, constraint] of violations) {
    it(`rejects ${label} with 400 and stores nothing`, async () => {
      const before = await count()
      const { error, status } = await test
        .anon()
        .from('contact_submissions')
        .insert({ ...VALID_ROW, ...change })
      expect(status).toBe(400)
      expect(error?.code).toBe('23514')
      expect(error?.message).toContain(constraint)
      expect(await count()).toBe(before)
    })
  }

  it('stores direction overrides and zero-width spaces in the message as sent (the inbox shows them as marks)', async () => {
    const message = 'Ouvrez la pièce \u202egnp.exe\u200b, merci.'
    const { status } = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, email: 'marks@example.fr', message })
    expect(status).toBe(201)
    expect(
      await test.stored(`select message from public.contact_submissions where email = 'marks@example.fr'`),
    ).toEqual([{ message }])
  })

  it('accepts the exact boundaries (2 and 100 characters, 10 and 1000, 20-character phone)', async () => {
    for (const change of [
      { name: 'Al' },
      { name: 'N'.repeat(100) },
      { message: 'x'.repeat(10) },
      { message: 'x'.repeat(1000) },
      { phone: '0'.repeat(20) },
      { name: '😀'.repeat(100) },
    ]) {
      const { error } = await test
        .anon()
        .from('contact_submissions')
        .insert({ ...VALID_ROW, ...change })
      expect(error, JSON.stringify(change)).toBeNull()
    }
  })

  it('rejects a missing required field with 400 (not-null)', async () => {
    const { name: _omitted, ...withoutName } = VALID_ROW
    const { error, status } = await test.anon().from('contact_submissions').insert(withoutName)
    expect(status).toBe(400)
    expect(error?.code).toBe('23502')
  })

  it('rejects unknown columns and columns visitors may not set', async () => {
    const unknown = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, admin: true })
    expect(unknown.status).toBe(400)
    expect(unknown.error?.code).toBe('PGRST204')
    for (const [column, value] of [
      ['is_read', true],
      ['created_at', '2000-01-01T00:00:00Z'],
      ['notified_at', '2000-01-01T00:00:00Z'],
      ['notification_status', 'sent'],
      ['notification_error', 'none'],
      ['last_resend_at', '2000-01-01T00:00:00Z'],
    ] as const) {
      const { error, status } = await test
        .anon()
        .from('contact_submissions')
        .insert({ ...VALID_ROW, [column]: value })
      expect(status, column).toBe(401)
      expect(error?.code).toBe('42501')
    }
  })

  it('lets the form choose the id of the message it stores (to name it to send-contact-email), a UUID only once', async () => {
    const id = '0b7d6c1e-8a4f-4c2b-9e3d-5f6a7b8c9d0e'
    expect(
      (
        await test
          .anon()
          .from('contact_submissions')
          .insert({ ...VALID_ROW, id })
      ).status,
    ).toBe(201)
    expect(await test.stored(`select id, notified_at from public.contact_submissions where id = '${id}'`)).toEqual([
      { id, notified_at: null },
    ])
    const again = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, id })
    expect(again.status).toBe(409)
    expect(again.error?.code).toBe('23505')
    const notUuid = await test
      .anon()
      .from('contact_submissions')
      .insert({ ...VALID_ROW, id: 'not-a-uuid' })
    expect(notUuid.status).toBe(400)
    expect(notUuid.error?.code).toBe('22P02')
  })

  it('lets nobody but admins read: anon gets no rows, and cannot read back its own insert', async () => {
    const read = await test.anon().from('contact_submissions').select('*')
    expect(read.data).toBeNull()
    expect(read.status).toBe(401)
    const readBack = await test.anon().from('contact_submissions').insert(VALID_ROW).select()
    expect(readBack.data).toBeNull()
    expect(readBack.error?.code).toBe('42501')
  })

  it('anon can neither update nor delete', async () => {
    const before = await test.stored('select id, message from public.contact_submissions order by id')
    const update = await test
      .anon()
      .from('contact_submissions')
      .update({ message: 'Hacked message!!' })
      .neq('id', '00000000-0000-4000-8000-000000000000')
    expect(update.error?.code).toBe('42501')
    const remove = await test
      .anon()
      .from('contact_submissions')
      .delete()
      .neq('id', '00000000-0000-4000-8000-000000000000')
    expect(remove.error?.code).toBe('42501')
    expect(await test.stored('select id, message from public.contact_submissions order by id')).toEqual(before)
  })
})

describe('rate limit per client address', () => {
  let limited: TestSupabase
  beforeAll(async () => {
    // Defaults (5 per 10 minutes), with one trusted proxy in front so tests can pose as many clients.
    limited = await startTestSupabase({ trustedProxyHops: 2 })
  })
  afterAll(() => limited.close())

  it('accepts 5 messages from one address in 10 minutes, refuses the 6th with PT429, and counts addresses apart', async () => {
    const address = clientAddress()
    const client = limited.anon({ 'X-Forwarded-For': address })
    for (let i = 0; i < 5; i++) expect((await client.from('contact_submissions').insert(VALID_ROW)).error).toBeNull()
    const refused = await client.from('contact_submissions').insert(VALID_ROW)
    expect(refused.status).toBe(429)
    expect(refused.error?.code).toBe('PT429')
    expect((await limited.stored()).length).toBe(5)
    const other = await limited
      .anon({ 'X-Forwarded-For': clientAddress() })
      .from('contact_submissions')
      .insert(VALID_ROW)
    expect(other.error).toBeNull()
  })

  it('invalid messages do not use up the allowance', async () => {
    const client = limited.anon({ 'X-Forwarded-For': clientAddress() })
    for (let i = 0; i < 8; i++)
      expect((await client.from('contact_submissions').insert({ ...VALID_ROW, name: 'X' })).status).toBe(400)
    expect((await client.from('contact_submissions').insert(VALID_ROW)).error).toBeNull()
  })

  it('a client cannot escape the limit by forging X-Forwarded-For when no proxy is trusted', async () => {
    const direct = await startTestSupabase({ trustedProxyHops: 1 })
    try {
      let refused = 0
      for (let i = 0; i < 7; i++) {
        const { status } = await direct
          .anon({ 'X-Forwarded-For': clientAddress() })
          .from('contact_submissions')
          .insert(VALID_ROW)
        if (status === 429) refused++
      }
      expect(refused).toBe(2)
      expect((await direct.stored()).length).toBe(5)
    } finally {
      await direct.close()
    }
  })

  it('the service role (server-side scripts) is not limited', async () => {
    const service = limited.service()
    for (let i = 0; i < 7; i++) expect((await service.from('contact_submissions').insert(VALID_ROW)).error).toBeNull()
  })
})
