import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import process from 'node:process'
import nodemailer from 'nodemailer'
import { MIN_FILL_TIME_MS } from '../_shared/contact-limits.ts'
import { createNotificationSchema, type ContactValues } from '../_shared/contact-schema.ts'

/*
 * send-contact-email (spec §7.2): after a message is stored, the forms ask this function to notify
 * the agency. It validates the body with the same zod schema as the forms, refuses bot-like requests
 * (honeypot filled, form filled in under 3 s) and sends nothing for them, then emails the agency with
 * the visitor as reply-to: over SMTP when SMTP_URL is set, otherwise into a local outbox folder.
 * Runs unchanged on Supabase Edge (index.ts → Deno.serve) and in the local server (Node).
 *
 * Environment: CONTACT_NOTIFICATION_TO (agency address), CONTACT_NOTIFICATION_FROM, SMTP_URL
 * (e.g. smtps://user:pass@smtp.example.com:465), OUTBOX_DIR (default .data/outbox).
 */

const MAX_BODY_BYTES = 16 * 1024
const DEFAULT_TO = 'contact@plumeetcap.fr'
const DEFAULT_FROM = 'Site Plume & Cap <no-reply@plumeetcap.fr>'

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-retry-count, traceparent, tracestate, baggage',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

function json(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...CORS, 'Content-Type': 'application/json; charset=utf-8' } })
}

function log(entry: Record<string, unknown>) {
  console.log(JSON.stringify({ time: new Date().toISOString(), fn: 'send-contact-email', ...entry }))
}

/** One line of a header: no CR/LF a visitor could use to add headers. */
const singleLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ')

export function composeEmail(values: ContactValues & { package?: string | null }) {
  const packageLine = values.package ? `Formule choisie : ${values.package}` : 'Formule choisie : aucune (formulaire de contact)'
  return {
    from: process.env.CONTACT_NOTIFICATION_FROM || DEFAULT_FROM,
    to: process.env.CONTACT_NOTIFICATION_TO || DEFAULT_TO,
    replyTo: { name: singleLine(values.name), address: values.email },
    subject: singleLine(`Nouveau message de ${values.name}${values.package ? ` (${values.package})` : ''}`),
    text: [
      `Nom : ${values.name}`,
      `Email : ${values.email}`,
      `Téléphone : ${values.phone || 'non renseigné'}`,
      packageLine,
      '',
      'Message :',
      values.message,
      '',
      '— Envoyé depuis le formulaire du site. Répondez directement à cet email pour écrire au visiteur.',
    ].join('\n'),
  }
}

async function deliver(message: ReturnType<typeof composeEmail>): Promise<{ via: 'smtp' | 'outbox'; id: string }> {
  const smtpUrl = process.env.SMTP_URL
  if (smtpUrl) {
    const info = await nodemailer.createTransport(smtpUrl).sendMail(message)
    return { via: 'smtp', id: String(info.messageId) }
  }
  const info = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(message)
  const dir = process.env.OUTBOX_DIR || join('.data', 'outbox')
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.eml`)
  await writeFile(file, info.message as Buffer)
  return { via: 'outbox', id: file }
}

export default async function handleSendContactEmail(request: Request): Promise<Response> {
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
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return json(400, { error: 'invalid_body' })

  const record = body as Record<string, unknown>
  // Bot checks first (spec §8), before anything else is looked at; nothing is sent for them.
  if (typeof record.website === 'string' && record.website !== '') {
    log({ outcome: 'rejected', reason: 'honeypot' })
    return json(400, { error: 'rejected' })
  }
  const fillTime = (record._meta as { fillTime?: unknown } | undefined)?.fillTime
  if (typeof fillTime === 'number' && fillTime < MIN_FILL_TIME_MS) {
    log({ outcome: 'rejected', reason: 'too_fast', fillTime })
    return json(400, { error: 'rejected' })
  }
  const parsed = createNotificationSchema().safeParse(body)
  if (!parsed.success) {
    log({ outcome: 'rejected', reason: 'invalid', fields: parsed.error.issues.map((issue) => issue.path.join('.')) })
    return json(400, { error: 'invalid', fields: parsed.error.issues.map((issue) => issue.path.join('.')) })
  }
  try {
    const result = await deliver(composeEmail(parsed.data))
    log({ outcome: 'sent', via: result.via, id: result.id })
    return json(200, { ok: true, via: result.via })
  } catch (error) {
    log({ outcome: 'failed', error: error instanceof Error ? error.message : String(error) })
    return json(502, { error: 'delivery_failed' })
  }
}
