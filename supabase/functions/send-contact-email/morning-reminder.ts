import type { SupabaseClient } from '@supabase/supabase-js'
import { frenchDate } from '../_shared/french-date.ts'
import { revealInvisibleCharacters } from '../_shared/invisible-characters.ts'
import { agencyAddresses, deliver, json, log, singleLine, type FunctionEnv } from './mail.ts'

/*
 * The morning reminder (`{"reminder": "due"}`, the pg_cron job of the migration 20261229100000): at
 * 8:00 in Paris, when messages have waited over 24 hours for an answer, one email to the agency lists
 * them, oldest first (the database says when it is due and claims the day); none when nothing waits.
 */

/** A waiting message as claim_contact_reminder lists it. */
export type WaitingMessage = {
  id: string
  name: string
  email: string
  package: string | null
  locale: string | null
  created_at: string
}
export type ReminderClaim = { day: string; total: number; messages: WaitingMessage[] }

const received = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' })

/** « 3 messages attendent », « 1 message attend »: French plural, 1 singular. */
const waitingLabel = (count: number) => (count === 1 ? '1 message attend' : `${count} messages attendent`)

/** The reminder's email: how many wait, then each (name, address, when, how long, package, language). */
export function composeReminder(claim: ReminderClaim, now: Date, env: FunctionEnv) {
  const lines = claim.messages.map((message) => {
    const hours = Math.floor((now.getTime() - Date.parse(message.created_at)) / 3_600_000)
    const details = [
      message.package ? `forfait ${revealInvisibleCharacters(message.package)}` : null,
      message.locale === 'en' ? 'écrit en anglais' : null,
    ].filter(Boolean)
    return (
      `- ${revealInvisibleCharacters(message.name)} <${revealInvisibleCharacters(message.email)}>, reçu le ` +
      `${frenchDate(received, new Date(message.created_at))} (il y a ${hours} h)${details.length ? `, ${details.join(', ')}` : ''}`
    )
  })
  const others = claim.total - claim.messages.length
  return {
    ...agencyAddresses(env),
    subject: singleLine(`Rappel : ${waitingLabel(claim.total)} une réponse depuis plus de 24 h`),
    text: [
      'Bonjour,',
      '',
      `${waitingLabel(claim.total)} une réponse depuis plus de 24 h, alors que la page Contact promet « Réponse sous 24h » :`,
      '',
      ...lines,
      ...(others > 0 ? [`… et ${others === 1 ? 'un autre' : `${others} autres`}.`] : []),
      '',
      'Ils sont dans la boîte de réception du site, filtre « À répondre » ; marquez-les « Répondu » une fois la réponse envoyée.',
      '',
      '— Rappel envoyé chaque matin à 8 h quand des messages attendent.',
    ].join('\n'),
  }
}

/** Claims today's reminder (as the caller: the service role alone may) and sends it. */
export async function sendMorningReminder(
  caller: SupabaseClient,
  service: SupabaseClient,
  env: FunctionEnv,
): Promise<Response> {
  const claim = await caller.rpc('claim_contact_reminder')
  if (claim.error) {
    const forbidden = claim.error.code === '42501' || claim.status === 401 || claim.status === 403
    log({ outcome: forbidden ? 'rejected' : 'failed', reason: 'reminder', code: claim.error.code })
    return forbidden ? json(403, { error: 'forbidden' }) : json(502, { error: 'database_unavailable' })
  }
  const answer = claim.data as { outcome: string } & Partial<ReminderClaim>
  if (answer.outcome !== 'claimed') return json(200, { ok: true, sent: false, reason: answer.outcome })
  const reminder = answer as ReminderClaim
  try {
    const { via } = await deliver(composeReminder(reminder, new Date(), env), env)
    log({ outcome: 'reminded', via, waiting: reminder.total })
    return json(200, { ok: true, sent: true, via, waiting: reminder.total })
  } catch (error) {
    // The day is given back: the job's next run (10 minutes later, within the hour) tries again.
    const released = await service.rpc('release_contact_reminder', { day: reminder.day })
    log({ outcome: 'failed', reason: 'reminder', error: String(error), released: !released.error })
    return json(502, { error: 'delivery_failed' })
  }
}
