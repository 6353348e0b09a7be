import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addAdminAndMember, asRole, type Sql, targets } from './database-targets'

/*
 * The notification state of each message (migration 20261210100100), read straight from the database
 * on PGlite and (with TEST_DATABASE_URL, as in CI) PostgreSQL: who may read and write it, the claim
 * and record functions send-contact-email uses, the backoff, and the resend's once-a-minute limit,
 * which the database decides under the row's lock.
 */

const STATE = `notification_status, notification_error, notification_attempts, notification_next_attempt_at, notified_at, last_resend_at`
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'error',
  )

for (const target of targets) {
  describe(`${target.name}: the notification state`, () => {
    let sql: Sql
    const adminId = randomUUID()
    const memberId = randomUUID()
    // Each stored message from an address of its own: the per-address limit (5 in 10 minutes) is not tested here.
    let visitors = 0
    const asAnon = <T>(work: () => Promise<T>) =>
      asRole(sql, 'anon', {}, { 'x-forwarded-for': `198.51.100.${++visitors}` }, work)
    const asUser = <T>(id: string, work: () => Promise<T>) =>
      asRole(sql, 'authenticated', { sub: id }, { 'x-forwarded-for': '192.0.2.50' }, work)
    const asService = <T>(work: () => Promise<T>) => asRole(sql, 'service_role', {}, {}, work)

    /** A message as the form stores it (anon insert under its own id); never asked yet. */
    async function store(): Promise<string> {
      const id = randomUUID()
      await asAnon(() =>
        sql.query(`insert into public.contact_submissions (id, name, email, message) values ($1, $2, $3, $4)`, [
          id,
          'Camille Martin',
          `${id}@example.fr`,
          'Bonjour, un message de test.',
        ]),
      )
      return id
    }
    const stateOf = async (id: string) =>
      (
        await sql.query<Record<string, unknown>>(`select ${STATE} from public.contact_submissions where id = $1`, [id])
      )[0]
    const claim = (id: string, resend = false) =>
      asService(() =>
        sql.query<{ result: { outcome: string; message?: { id: string } } }>(
          `select public.claim_contact_notification($1, $2) as result`,
          [id, resend],
        ),
      ).then(([row]) => row.result)
    const record = (id: string, error: string | null) =>
      asService(() => sql.query(`select public.record_contact_notification($1, $2)`, [id, error]))
    const resend = (id: string, as = adminId) =>
      asUser(as, () => sql.query(`select public.request_contact_notification_resend($1)`, [id]))

    beforeAll(async () => {
      sql = await target.open()
      await addAdminAndMember(sql, adminId, memberId)
    }, 120_000)
    afterAll(() => sql?.close())

    it('a stored message starts never asked; admins read the state, visitors cannot, non-admins see no row', async () => {
      const id = await store()
      expect(await stateOf(id)).toEqual({
        notification_status: 'never_asked',
        notification_error: null,
        notification_attempts: 0,
        notification_next_attempt_at: null,
        notified_at: null,
        last_resend_at: null,
      })
      const [seen] = await asUser(adminId, () =>
        sql.query(`select notification_status, notification_error from public.contact_submissions where id = $1`, [id]),
      )
      expect(seen).toEqual({ notification_status: 'never_asked', notification_error: null })
      expect(await codeOf(asAnon(() => sql.query(`select notification_status from public.contact_submissions`)))).toBe(
        '42501',
      )
      expect(
        await asUser(memberId, () => sql.query(`select notification_error from public.contact_submissions`)),
      ).toEqual([])
    })

    it('neither visitors nor admins write the state, nor call the functions that do', async () => {
      const id = await store()
      expect(
        await codeOf(
          asAnon(() =>
            sql.query(
              `insert into public.contact_submissions (name, email, message, notification_status, notified_at) values ('Mallory', 'm@example.fr', 'Déjà notifié, vraiment.', 'sent', now())`,
            ),
          ),
        ),
      ).toBe('42501')
      for (const change of [
        `notification_status = 'sent', notified_at = now()`,
        `notification_error = null`,
        `notification_next_attempt_at = now()`,
        `last_resend_at = null`,
      ]) {
        const update = asUser(adminId, () =>
          sql.query(`update public.contact_submissions set ${change} where id = $1`, [id]),
        )
        expect(await codeOf(update), change).toBe('42501')
      }
      for (const call of [
        `select public.claim_contact_notification('${id}')`,
        `select public.claim_due_contact_notifications()`,
        `select public.record_contact_notification('${id}', null)`,
      ]) {
        expect(await codeOf(asUser(adminId, () => sql.query(call))), call).toBe('42501')
        expect(await codeOf(asAnon(() => sql.query(call))), call).toBe('42501')
      }
      expect(await codeOf(asAnon(() => sql.query(`select public.request_contact_notification_resend('${id}')`)))).toBe(
        '42501',
      )
      expect((await stateOf(id)).notification_status).toBe('never_asked')
    })

    it('the CHECKs keep the state consistent, whoever writes it', async () => {
      const id = await store()
      for (const change of [
        `notification_status = 'sent'`, // sent needs notified_at
        `notified_at = now()`, // and notified_at needs sent
        `notification_status = 'delivery_failed'`, // a failure needs its reason
        `notification_status = 'sending'`, // a claim needs its time
        `notification_next_attempt_at = now()`, // only a failure is tried again
        `notification_status = 'lost'`,
      ]) {
        const update = sql.query(`update public.contact_submissions set ${change} where id = $1`, [id])
        expect(await codeOf(update), change).toBe('23514')
      }
    })

    it('a claim takes a message once; a failure is recorded with its reason and the next attempt, a success with its time', async () => {
      const id = await store()
      expect(await claim(id)).toMatchObject({ outcome: 'claimed', message: { id } })
      expect(await claim(id)).toEqual({ outcome: 'sending' })
      await record(id, 'ESOCKET: connect ECONNREFUSED 127.0.0.1:9')
      expect(await stateOf(id)).toMatchObject({
        notification_status: 'delivery_failed',
        notification_error: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:9',
        notification_attempts: 1,
        notified_at: null,
      })
      const [{ due_within_a_minute }] = await sql.query<{ due_within_a_minute: boolean }>(
        `select notification_next_attempt_at > now() and notification_next_attempt_at <= now() + interval '1 minute' as due_within_a_minute
           from public.contact_submissions where id = $1`,
        [id],
      )
      expect(due_within_a_minute).toBe(true)
      // The form's call does not send a failed one again (the schedule or an administrator does)…
      expect(await claim(id)).toEqual({ outcome: 'delivery_failed' })
      // …nor does the sweep before its time.
      const early = await asService(() =>
        sql.query<{ due: unknown[] }>(`select public.claim_due_contact_notifications() as due`),
      )
      expect(early[0].due.map((row) => (row as { id: string }).id)).not.toContain(id)
      await sql.query(
        `update public.contact_submissions set notification_next_attempt_at = now() - interval '1 second' where id = $1`,
        [id],
      )
      const [{ due }] = await asService(() =>
        sql.query<{ due: { id: string }[] }>(`select public.claim_due_contact_notifications() as due`),
      )
      expect(due.map((row) => row.id)).toContain(id)
      const [{ again }] = await asService(() =>
        sql.query<{ again: { id: string }[] }>(`select public.claim_due_contact_notifications() as again`),
      )
      expect(again.map((row) => row.id)).not.toContain(id)
      await record(id, null)
      const sent = await stateOf(id)
      expect(sent).toMatchObject({ notification_status: 'sent', notification_error: null, notification_attempts: 2 })
      expect(sent.notified_at).not.toBeNull()
      expect(await claim(id, true)).toEqual({ outcome: 'sent' })
      expect(await claim(randomUUID())).toEqual({ outcome: 'not_found' })
    })

    it('the backoff: 1, 5 and 30 minutes after the first three failures, then the schedule gives up', async () => {
      const delays = await sql.query<{ delay: string | null }>(
        `select private.contact_notification_retry_delay(n)::text as delay from generate_series(1, 5) n order by n`,
      )
      expect(delays.map((row) => row.delay)).toEqual(['00:01:00', '00:05:00', '00:30:00', null, null])
      const id = await store()
      for (let attempt = 1; attempt <= 4; attempt++) {
        expect((await claim(id, true)).outcome).toBe('claimed')
        await record(id, `failure ${attempt}`)
      }
      expect(await stateOf(id)).toMatchObject({
        notification_status: 'delivery_failed',
        notification_attempts: 4,
        notification_next_attempt_at: null,
        notification_error: 'failure 4',
      })
    })

    it('an interrupted claim (older than its 10-minute lease) is taken over by the sweep', async () => {
      const id = await store()
      await claim(id)
      await sql.query(
        `update public.contact_submissions set notification_claimed_at = now() - interval '11 minutes' where id = $1`,
        [id],
      )
      const [{ due }] = await asService(() =>
        sql.query<{ due: { id: string }[] }>(`select public.claim_due_contact_notifications() as due`),
      )
      expect(due.map((row) => row.id)).toContain(id)
      expect((await stateOf(id)).notification_attempts).toBe(2)
    })

    it('a resend is an administrator\u2019s, once a minute per message: the database refuses the second with PT429', async () => {
      const id = await store()
      expect(await codeOf(resend(id))).toBe('ok')
      const second = await resend(id).catch((error: { code?: string; detail?: string }) => error)
      expect((second as { code?: string }).code).toBe('PT429')
      const secondsLeft = Number((second as { detail?: string }).detail)
      expect(secondsLeft).toBeGreaterThanOrEqual(1)
      expect(secondsLeft).toBeLessThanOrEqual(60)
      // A minute later (moved back rather than waited for), it is allowed again.
      await sql.query(
        `update public.contact_submissions set last_resend_at = now() - interval '61 seconds' where id = $1`,
        [id],
      )
      expect(await codeOf(resend(id))).toBe('ok')
      // Another message has its own minute.
      expect(await codeOf(resend(await store()))).toBe('ok')
    })

    it('a resend is refused to non-admins (42501), for a message that no longer exists (PT404) and once sent (PT409)', async () => {
      const id = await store()
      expect(await codeOf(resend(id, memberId))).toBe('42501')
      expect((await stateOf(id)).last_resend_at).toBeNull()
      expect(await codeOf(resend(randomUUID()))).toBe('PT404')
      await sql.query(`delete from public.contact_submissions where id = $1`, [id])
      expect(await codeOf(resend(id))).toBe('PT404')
      const sent = await store()
      await claim(sent)
      expect(await codeOf(resend(sent))).toBe('PT409')
      await record(sent, null)
      expect(await codeOf(resend(sent))).toBe('PT409')
    })
  })
}
