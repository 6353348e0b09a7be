import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import process from 'node:process'
import { z } from 'zod'
import { MESSAGE_WHITESPACE, revealInvisibleCharacters } from '../_shared/invisible-characters.ts'
import { agencyAddresses, CORS, deliver, json, log, singleLine, type FunctionEnv } from './mail.ts'
import { sendMorningReminder } from './morning-reminder.ts'

/*
 * send-contact-email: tells the agency about stored messages, at most once each when delivery works.
 * The email carries the stored row's own name, email, phone, message and package, never text from
 * the request, with the visitor as reply-to (mail.ts: SMTP, or a local outbox folder). Runs unchanged on Supabase Edge (index.ts → Deno.serve) and in the local server (Node).
 *
 * Three requests (any other key is ignored):
 * - `{ "id": "<uuid>" }` with the service-role key, from the database once a visitor's message is
 *   stored (the insert trigger of the migration 20261220100000, through pg_net): sends a message never
 *   notified yet. Answers 200 {ok, via} sent; 403 for any other caller (a visitor's tab no longer
 *   asks); 404 no such message; 409 already notified, being sent, or failed (then the schedule or an
 *   administrator sends it); 502 delivery failed (recorded).
 * - `{ "id": "<uuid>", "resend": true }` with an administrator's token: sends it again (or for the
 *   first time), at most once a minute per message. 200 sent; 403 not an administrator; 404 no such
 *   message (e.g. purged meanwhile); 409 already sent or being sent; 429 asked less than a minute ago
 *   (Retry-After); 502 delivery failed.
 * - `{ "retry": "due" }` with the service-role key (the pg_cron job, see the migration
 *   20261210100100): sends the failed notifications whose next attempt is due. 200 {ok, attempted,
 *   sent, failed}; 403 for any other caller.
 * - `{ "reminder": "due" }` with the service-role key (the morning job of the migration
 *   20261229100000, morning-reminder.ts): 200 {ok, sent}; 403 for any other caller; 502 not delivered.
 * 400 invalid body; 500 when the function lacks its Supabase settings.
 *
 * The database keeps each message's notification state and decides every rule (the migration
 * 20261210100100): a claim makes concurrent calls send once; a failure is recorded with its reason
 * and the next attempt's time (the backoff is stated there); the resend's once-a-minute limit and the
 * administrator check are made there under the row's lock. Every request reaches the database with the
 * caller's own token first, so its grants and roles decide who may ask (the claims are the service
 * role's; the resend asks the administrator's own).
 *
 * Environment: SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY (set by Supabase for every
 * function, and by the local server), CONTACT_NOTIFICATION_TO (agency address),
 * CONTACT_NOTIFICATION_FROM, SMTP_URL (e.g. smtps://user:pass@smtp.example.com:465), OUTBOX_DIR
 * (default .data/outbox).
 */

const MAX_BODY_BYTES = 16 * 1024

/** The requests (see above); anything else the body carries is ignored. */
const notifyRequest = z.object({ id: z.uuid() })
const resendRequest = z.object({ id: z.uuid(), resend: z.literal(true) })
const retryRequest = z.object({ retry: z.literal('due') })
const reminderRequest = z.object({ reminder: z.literal('due') })
type Job = { kind: 'notify' | 'resend'; id: string } | { kind: 'retry' } | { kind: 'reminder' }

/** Which request the body is; a body naming `retry`, `reminder` or `resend` must be that request. */
function parseJob(body: unknown): Job | null {
  const has = (key: string) => typeof body === 'object' && body !== null && !Array.isArray(body) && key in body
  if (has('retry')) return retryRequest.safeParse(body).success ? { kind: 'retry' } : null
  if (has('reminder')) return reminderRequest.safeParse(body).success ? { kind: 'reminder' } : null
  const parsed = (has('resend') ? resendRequest : notifyRequest).safeParse(body)
  return parsed.success ? { kind: has('resend') ? 'resend' : 'notify', id: parsed.data.id } : null
}

/** Failed notifications sent per scheduled run; the rest wait for the next run (every 5 minutes). */
const RETRY_BATCH = 10

/** A stored message, as the function reads it from contact_submissions. */
export type MessageRow = {
  name: string
  email: string
  phone: string | null
  message: string
  package: string | null
  /** The language of the page it was sent from (migration 20261228100000; absent before it: French). */
  locale?: string | null
}

/** The email to the agency about one stored message; invisible characters are shown as marks. */

export function composeEmail(row: MessageRow, env: FunctionEnv = process.env) {
  const visible = (text: string, keep = '') => revealInvisibleCharacters(text, keep)
  const name = visible(row.name)
  const packageName = row.package ? visible(row.package) : null
  const english = row.locale === 'en'
  return {
    ...agencyAddresses(env),
    replyTo: { name: singleLine(name), address: row.email },
    subject: singleLine(
      `Nouveau message de ${name}${packageName ? ` (${packageName})` : ''}${english ? ' (en anglais)' : ''}`,
    ),
    text: [
      ...(english ? ['Écrit en anglais depuis la version anglaise du site (/en) : répondez en anglais.', ''] : []),
      `Nom : ${name}`,
      `Email : ${visible(row.email)}`,
      `Téléphone : ${row.phone ? visible(row.phone) : 'non renseigné'}`,
      packageName ? `Formule choisie : ${packageName}` : 'Formule choisie : aucune (formulaire de contact)',
      '',
      'Message :',
      visible(row.message, MESSAGE_WHITESPACE),
      '',
      '— Envoyé depuis le formulaire du site. Répondez directement à cet email pour écrire au visiteur.',
    ].join('\n'),
  }
}

type Database = SupabaseClient
/** A stored message as the claim functions return it. */
type Claimed = MessageRow & { id: string }
/** What a claim did: 'claimed' (with the message), else the message's state or 'not_found'. */
type ClaimOutcome = { outcome: string; message?: Claimed }

/** A short technical reason for the administrator (never sent to the visitor): one line, 300 characters. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  return singleLine(`${typeof code === 'string' ? `${code}: ` : ''}${message}`).slice(0, 300)
}

/** Delivers a claimed message and records the outcome (sent, or failed with its reason and next attempt). */
async function deliverClaimed(database: Database, message: Claimed, env: FunctionEnv) {
  let via: 'smtp' | 'outbox' | null = null
  let failure: string | null = null
  try {
    via = (await deliver(composeEmail(message, env), env)).via
  } catch (error) {
    failure = reasonOf(error)
  }
  const recorded = await database.rpc('record_contact_notification', {
    submission_id: message.id,
    delivery_error: failure,
  })
  // Sent but not recorded: the claim lapses after its lease and the sweep sends again (logged).
  if (recorded.error) log({ outcome: 'unrecorded', id: message.id, error: recorded.error.message })
  const next = (recorded.data as { next_attempt_at?: string | null } | null)?.next_attempt_at ?? null
  if (via) log({ outcome: 'sent', via, id: message.id })
  else log({ outcome: 'failed', id: message.id, error: failure, next_attempt_at: next })
  return via
}

/**
 * Claims one message (resend: also a failed one) as `claimant` and delivers it; the answer says what
 * happened. The claim is the service role's alone: any other caller is refused by the database (403).
 */
async function notifyOne(
  claimant: Database,
  service: Database,
  id: string,
  resend: boolean,
  env: FunctionEnv,
): Promise<Response> {
  const claim = await claimant.rpc('claim_contact_notification', { submission_id: id, resend })
  if (claim.error) {
    const forbidden = claim.error.code === '42501' || claim.status === 401 || claim.status === 403
    log({ outcome: forbidden ? 'rejected' : 'failed', reason: forbidden ? 'notify' : 'database', id })
    return forbidden ? json(403, { error: 'forbidden' }) : json(502, { error: 'database_unavailable' })
  }
  const { outcome, message } = claim.data as ClaimOutcome
  if (outcome !== 'claimed' || !message) {
    log({ outcome: 'rejected', reason: outcome, id })
    if (outcome === 'not_found') return json(404, { error: 'not_found' })
    if (outcome === 'sent') return json(409, { error: 'already_notified' })
    if (outcome === 'sending') return json(409, { error: 'notification_in_progress' })
    return json(409, { error: 'notification_failed' })
  }
  const via = await deliverClaimed(service, message, env)
  return via ? json(200, { ok: true, via }) : json(502, { error: 'delivery_failed' })
}

/** The answer to a refusal of the database (PostgREST's error for a RAISE in the resend function). */
function refusal(error: { code?: string; details?: string | null }, status: number): Response {
  if (error.code === 'PT404') return json(404, { error: 'not_found' })
  if (error.code === 'PT409')
    return json(409, { error: error.details === 'sending' ? 'notification_in_progress' : 'already_notified' })
  if (error.code === 'PT429') {
    const seconds = /^\d+$/.test(error.details ?? '') ? String(error.details) : '60'
    return json(429, { error: 'too_soon', retry_after_seconds: Number(seconds) }, { 'Retry-After': seconds })
  }
  if (error.code === '42501' || status === 401 || status === 403) return json(403, { error: 'forbidden' })
  return json(502, { error: 'database_unavailable' })
}

/**
 * The function. `env` defaults to the process environment (Supabase Edge); the local server passes
 * its own SUPABASE_URL and keys on top, as the Supabase runtime injects them.
 */
export default async function handleSendContactEmail(
  request: Request,
  env: FunctionEnv = process.env,
): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response('ok', { headers: CORS })
  if (request.method !== 'POST') return json(405, { error: 'method_not_allowed' })

  const text = await request.text()
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) return json(413, { error: 'payload_too_large' })
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return json(400, { error: 'invalid_json' })
  }
  const job = parseJob(body)
  if (!job) {
    log({ outcome: 'rejected', reason: 'invalid' })
    return json(400, {
      error: 'invalid',
      message:
        'The body must be {"id": "<uuid>"}, {"id": "<uuid>", "resend": true}, {"retry": "due"} or {"reminder": "due"}',
    })
  }

  if (!env.SUPABASE_URL || !env.SUPABASE_SERVICE_ROLE_KEY || !env.SUPABASE_ANON_KEY) {
    log({ outcome: 'failed', reason: 'SUPABASE_URL, SUPABASE_ANON_KEY or SUPABASE_SERVICE_ROLE_KEY is not set' })
    return json(500, { error: 'not_configured' })
  }
  const options = { auth: { persistSession: false, autoRefreshToken: false } }
  const service = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, options)
  // As the caller: the database decides who may ask for a notification or run the retry (the service
  // role) and who may resend (an administrator).
  const authorization = request.headers.get('Authorization') ?? `Bearer ${env.SUPABASE_ANON_KEY}`
  const caller = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    ...options,
    global: { headers: { Authorization: authorization } },
  })
  if (job.kind === 'notify') return notifyOne(caller, service, job.id, false, env)
  if (job.kind === 'reminder') return sendMorningReminder(caller, service, env)
  if (job.kind === 'resend') {
    const asked = await caller.rpc('request_contact_notification_resend', { submission_id: job.id })
    if (asked.error) {
      log({ outcome: 'rejected', reason: 'resend', code: asked.error.code, id: job.id })
      return refusal(asked.error, asked.status)
    }
    return notifyOne(service, service, job.id, true, env)
  }

  const due = await caller.rpc('claim_due_contact_notifications', { max_count: RETRY_BATCH })
  if (due.error) {
    log({ outcome: 'rejected', reason: 'retry', code: due.error.code })
    return refusal(due.error, due.status)
  }
  let sent = 0
  const messages = (due.data ?? []) as Claimed[]
  for (const message of messages) if (await deliverClaimed(service, message, env)) sent++
  // A run with nothing due (most of them, every 5 minutes) says nothing.
  if (messages.length > 0) log({ outcome: 'retried', attempted: messages.length, sent })
  return json(200, { ok: true, attempted: messages.length, sent, failed: messages.length - sent })
}
