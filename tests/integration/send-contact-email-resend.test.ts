import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { signedInUser, startTestSupabase, type TestSupabase } from './local-supabase'
import { startSmtpReceiver, type SmtpReceiver } from '@plume/twins/smtp-receiver'

/*
 * send-contact-email's two other requests (the first, the database's, is in send-contact-email.test.ts):
 * the schedule's retry of failed notifications (service role only) and an administrator's resend
 * (once a minute per message). Against the local Supabase server, with an SMTP receiver that can be
 * told to refuse deliveries. The pg_cron job may run a retry of its own meanwhile (every 5 minutes):
 * the tests check what was sent and stored, which does not depend on which call sent it.
 */

let test: TestSupabase
let smtp: SmtpReceiver
let admin: SupabaseClient
let member: SupabaseClient
const savedSmtpUrl = process.env.SMTP_URL

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  process.env.SMTP_URL = smtp.url
  test = await startTestSupabase({ contactRateLimit: 1000 })
  admin = (await signedInUser(test, 'admin@example.fr', { admin: true })).client
  member = (await signedInUser(test, 'member@example.fr')).client
})
afterAll(async () => {
  await test.close()
  await smtp.close()
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL
  else process.env.SMTP_URL = savedSmtpUrl
})

let stored = 0
/** Stores a message never asked yet (as the service role: no webhook); its address marks its emails. */
async function store(): Promise<{ id: string; marker: string }> {
  const id = randomUUID()
  const marker = `resend-${++stored}@example.fr`
  const { error } = await test
    .service()
    .from('contact_submissions')
    .insert({ id, name: 'Camille Martin', email: marker, message: 'Bonjour, un message pour la relance.' })
  if (error) throw error
  return { id, marker }
}

async function call(client: SupabaseClient, body: Record<string, unknown>) {
  const { data, error } = await client.functions.invoke('send-contact-email', { body })
  const context = error ? (error as { context?: Response }).context : undefined
  return {
    status: context?.status ?? (error ? 0 : 200),
    data: (context ? await context.json() : data) as Record<string, unknown>,
    retryAfter: context?.headers.get('Retry-After') ?? null,
  }
}

/** A message whose notification the database asked for while the mail server refused it. */
async function failed(): Promise<{ id: string; marker: string }> {
  const message = await store()
  smtp.refuse(true)
  try {
    expect((await call(test.service(), { id: message.id })).status).toBe(502)
  } finally {
    smtp.refuse(false)
  }
  return message
}

const emailsTo = (marker: string) => smtp.received.filter((mail) => mail.raw.includes(marker)).length
const stateOf = async (id: string) =>
  (
    await test.stored(
      `select notification_status, notification_error, notification_attempts, notified_at, last_resend_at,
              extract(epoch from notification_next_attempt_at - now()) as next_in_seconds
         from public.contact_submissions where id = '${id}'`,
    )
  )[0]
const makeDue = (id: string) =>
  test.stored(
    `update public.contact_submissions set notification_next_attempt_at = now() - interval '1 second' where id = '${id}'`,
  )

describe('the retry of failed notifications (the schedule)', () => {
  it("records the mail server's refusal with its reason and the next attempt", async () => {
    const { id, marker } = await failed()
    expect(emailsTo(marker)).toBe(0)
    const state = await stateOf(id)
    expect(state).toMatchObject({ notification_status: 'delivery_failed', notification_attempts: 1, notified_at: null })
    expect(state.notification_error).toMatch(/550.*Mailbox unavailable/)
    expect(Number(state.next_in_seconds)).toBeGreaterThan(0)
    expect(Number(state.next_in_seconds)).toBeLessThanOrEqual(60)
  })

  it('sends each due failed notification once, even when two runs overlap, and leaves the others for later', async () => {
    const [a, b, later] = [await failed(), await failed(), await failed()]
    await makeDue(a.id)
    await makeDue(b.id)
    const runs = await Promise.all([call(test.service(), { retry: 'due' }), call(test.service(), { retry: 'due' })])
    expect(runs.map((run) => run.status)).toEqual([200, 200])
    expect(runs.every((run) => run.data.ok === true)).toBe(true)
    expect([emailsTo(a.marker), emailsTo(b.marker), emailsTo(later.marker)]).toEqual([1, 1, 0])
    for (const { id } of [a, b]) {
      const state = await stateOf(id)
      expect(state).toMatchObject({ notification_status: 'sent', notification_error: null, notification_attempts: 2 })
      expect(state.notified_at).not.toBeNull()
    }
    expect((await stateOf(later.id)).notification_status).toBe('delivery_failed')
    // Nothing is due any more: another run sends nothing.
    expect((await call(test.service(), { retry: 'due' })).status).toBe(200)
    expect([emailsTo(a.marker), emailsTo(b.marker), emailsTo(later.marker)]).toEqual([1, 1, 0])
  })

  it('a retry that fails again is put off per the backoff (5 minutes after the second failure)', async () => {
    const { id, marker } = await failed()
    await makeDue(id)
    smtp.refuse(true)
    try {
      expect((await call(test.service(), { retry: 'due' })).status).toBe(200)
    } finally {
      smtp.refuse(false)
    }
    const state = await stateOf(id)
    expect(state).toMatchObject({ notification_status: 'delivery_failed', notification_attempts: 2 })
    expect(Number(state.next_in_seconds)).toBeGreaterThan(4 * 60)
    expect(Number(state.next_in_seconds)).toBeLessThanOrEqual(5 * 60)
    expect(emailsTo(marker)).toBe(0)
  })

  it('is for the service role only: a visitor or an administrator gets 403 and nothing is sent', async () => {
    const { id, marker } = await failed()
    await makeDue(id)
    for (const client of [test.anon(), admin]) {
      expect(await call(client, { retry: 'due' })).toMatchObject({ status: 403, data: { error: 'forbidden' } })
    }
    expect(emailsTo(marker)).toBe(0)
    expect(await call(test.service(), { retry: 'now' })).toMatchObject({ status: 400 })
  })
})

describe("an administrator's resend", () => {
  it('delivers a failed notification once and records it as sent; a second resend answers 409', async () => {
    const { id, marker } = await failed()
    expect(await call(admin, { id, resend: true })).toMatchObject({ status: 200, data: { ok: true, via: 'smtp' } })
    expect(emailsTo(marker)).toBe(1)
    const state = await stateOf(id)
    expect(state).toMatchObject({ notification_status: 'sent', notification_attempts: 2 })
    expect(state.last_resend_at).not.toBeNull()
    expect(await call(admin, { id, resend: true })).toMatchObject({ status: 409, data: { error: 'already_notified' } })
    expect(emailsTo(marker)).toBe(1)
  })

  it('sends a message never asked about (e.g. stored by an operator, or while the webhook could not be queued)', async () => {
    const { id, marker } = await store()
    expect((await stateOf(id)).notification_status).toBe('never_asked')
    expect(await call(admin, { id, resend: true })).toMatchObject({ status: 200 })
    expect(emailsTo(marker)).toBe(1)
  })

  it('is allowed once a minute per message: the next answers 429 with Retry-After, until the minute is over', async () => {
    const { id, marker } = await failed()
    smtp.refuse(true)
    try {
      expect(await call(admin, { id, resend: true })).toMatchObject({
        status: 502,
        data: { error: 'delivery_failed' },
      })
      const tooSoon = await call(admin, { id, resend: true })
      expect(tooSoon).toMatchObject({ status: 429, data: { error: 'too_soon' } })
      expect(Number(tooSoon.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(tooSoon.retryAfter)).toBeLessThanOrEqual(60)
    } finally {
      smtp.refuse(false)
    }
    expect((await stateOf(id)).notification_attempts).toBe(2)
    // The minute is moved back rather than waited for.
    await test.stored(
      `update public.contact_submissions set last_resend_at = now() - interval '61 seconds' where id = '${id}'`,
    )
    expect(await call(admin, { id, resend: true })).toMatchObject({ status: 200 })
    expect(emailsTo(marker)).toBe(1)
  })

  it('of two concurrent resends of one message, one sends', async () => {
    const { id, marker } = await failed()
    const statuses = (await Promise.all([call(admin, { id, resend: true }), call(admin, { id, resend: true })]))
      .map((result) => result.status)
      .sort()
    expect(statuses[0]).toBe(200)
    expect([409, 429]).toContain(statuses[1])
    expect(emailsTo(marker)).toBe(1)
  })

  it('is refused to a signed-in non-admin and to visitors (403): nothing sent, the minute not started', async () => {
    const { id, marker } = await failed()
    for (const client of [member, test.anon()]) {
      expect(await call(client, { id, resend: true })).toMatchObject({ status: 403, data: { error: 'forbidden' } })
    }
    expect(emailsTo(marker)).toBe(0)
    expect((await stateOf(id)).last_resend_at).toBeNull()
  })

  it('answers 404 for a message that no longer exists (e.g. purged meanwhile)', async () => {
    const { id } = await failed()
    await test.service().from('contact_submissions').delete().eq('id', id).throwOnError()
    expect(await call(admin, { id, resend: true })).toMatchObject({ status: 404, data: { error: 'not_found' } })
    expect(await call(admin, { id: 'not-a-uuid', resend: true })).toMatchObject({ status: 400 })
  })
})
