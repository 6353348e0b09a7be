import { createClient } from '@supabase/supabase-js'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import process from 'node:process'
import nodemailer from 'nodemailer'
import { z } from 'zod'
import type { InsertRow } from '../_shared/contact-schema.ts'
import { MESSAGE_WHITESPACE, revealInvisibleCharacters } from '../_shared/invisible-characters.ts'

/*
 * send-contact-email: once a message is stored, the forms ask this function to notify the agency.
 * The request only names the stored row, `{ "id": "<uuid>" }` (the id the form inserted it with).
 * The function reads that row with the service role and emails the row's own name, email, phone,
 * message and package, never text from the request (other keys are ignored), with the visitor as
 * reply-to: over SMTP when SMTP_URL is set, otherwise into a local outbox folder. It marks the row
 * (notified_at) before sending, so each message is notified at most once, and clears the mark if
 * the delivery fails, so a retry can send it. Nothing can be sent that was not stored first: what
 * limits storing (the CHECKs, 5 messages per address per 10 minutes) limits notifications too.
 * Runs unchanged on Supabase Edge (index.ts → Deno.serve) and in the local server (Node).
 *
 * Answers: 200 {ok, via} sent; 400 invalid body; 404 no such message; 409 already notified;
 * 502 delivery (or database) failed; 500 when the function lacks its Supabase settings.
 *
 * Environment: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (set by Supabase for every function, and by
 * the local server), CONTACT_NOTIFICATION_TO (agency address), CONTACT_NOTIFICATION_FROM, SMTP_URL
 * (e.g. smtps://user:pass@smtp.example.com:465), OUTBOX_DIR (default .data/outbox).
 */

const MAX_BODY_BYTES = 16 * 1024
const DEFAULT_TO = 'contact@plumeetcap.fr'
const DEFAULT_FROM = 'Site Plume & Cap <no-reply@plumeetcap.fr>'

export type FunctionEnv = Record<string, string | undefined>

/** The request: the stored message's id. Anything else the body carries is ignored. */
const notificationRequest = z.object({ id: z.uuid() })

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-retry-count, traceparent, tracestate, baggage',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

function json(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json; charset=utf-8' },
  })
}

function log(entry: Record<string, unknown>) {
  console.log(JSON.stringify({ time: new Date().toISOString(), fn: 'send-contact-email', ...entry }))
}

/** One line of a header: no CR/LF a visitor could use to add headers. */
const singleLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ')

/** The email to the agency about one stored message; invisible characters are shown as marks. */
export function composeEmail(row: InsertRow, env: FunctionEnv = process.env) {
  const visible = (text: string, keep = '') => revealInvisibleCharacters(text, keep)
  const name = visible(row.name)
  const packageName = row.package ? visible(row.package) : null
  return {
    from: env.CONTACT_NOTIFICATION_FROM || DEFAULT_FROM,
    to: env.CONTACT_NOTIFICATION_TO || DEFAULT_TO,
    replyTo: { name: singleLine(name), address: row.email },
    subject: singleLine(`Nouveau message de ${name}${packageName ? ` (${packageName})` : ''}`),
    text: [
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

async function deliver(
  message: ReturnType<typeof composeEmail>,
  env: FunctionEnv,
): Promise<{ via: 'smtp' | 'outbox'; id: string }> {
  const smtpUrl = env.SMTP_URL
  if (smtpUrl) {
    const info = await nodemailer.createTransport(smtpUrl).sendMail(message)
    return { via: 'smtp', id: String(info.messageId) }
  }
  const info = await nodemailer
    .createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    .sendMail(message)
  const dir = env.OUTBOX_DIR || join('.data', 'outbox')
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.eml`)
  await writeFile(file, info.message as Buffer)
  return { via: 'outbox', id: file }
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
  const parsed = notificationRequest.safeParse(body)
  if (!parsed.success) {
    log({ outcome: 'rejected', reason: 'invalid' })
    return json(400, { error: 'invalid', message: 'The body must be {"id": "<uuid of the stored message>"}' })
  }
  const { id } = parsed.data

  if (!env.SUPABASE_URL || !env.SUPABASE_SERVICE_ROLE_KEY) {
    log({ outcome: 'failed', reason: 'SUPABASE_URL or SUPABASE_SERVICE_ROLE_KEY is not set' })
    return json(500, { error: 'not_configured' })
  }
  const database = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const messages = () => database.from('contact_submissions')

  // Claim the row: of concurrent calls for one message, one update finds notified_at still null.
  const claim = await messages()
    .update({ notified_at: new Date().toISOString() })
    .eq('id', id)
    .is('notified_at', null)
    .select('name, email, phone, message, package')
  if (claim.error) {
    log({ outcome: 'failed', reason: 'database', error: claim.error.message })
    return json(502, { error: 'database_unavailable' })
  }
  const row = (claim.data as InsertRow[])[0]
  if (!row) {
    const existing = await messages().select('id').eq('id', id).maybeSingle()
    if (existing.error) return json(502, { error: 'database_unavailable' })
    log({ outcome: 'rejected', reason: existing.data ? 'already_notified' : 'not_found', id })
    return existing.data ? json(409, { error: 'already_notified' }) : json(404, { error: 'not_found' })
  }
  try {
    const result = await deliver(composeEmail(row, env), env)
    log({ outcome: 'sent', via: result.via, id })
    return json(200, { ok: true, via: result.via })
  } catch (error) {
    // Not sent: clear the mark so that a later call can send it.
    await messages().update({ notified_at: null }).eq('id', id)
    log({ outcome: 'failed', id, error: error instanceof Error ? error.message : String(error) })
    return json(502, { error: 'delivery_failed' })
  }
}
