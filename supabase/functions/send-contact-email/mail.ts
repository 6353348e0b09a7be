import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'

/*
 * How send-contact-email reaches the agency, whatever it tells it (a message, the morning reminder):
 * over SMTP when SMTP_URL is set, otherwise into a local outbox folder (OUTBOX_DIR, default
 * .data/outbox); and the shape of its answers and log lines.
 */

export type FunctionEnv = Record<string, string | undefined>

const DEFAULT_TO = 'contact@plumeetcap.fr'
const DEFAULT_FROM = 'Site Plume & Cap <no-reply@plumeetcap.fr>'
/** SMTP waits (ms), well within Supabase Edge's limits and the database's 10-minute claim lease. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

/** Who sends and who receives what the function writes to the agency. */
export const agencyAddresses = (env: FunctionEnv) => ({
  from: env.CONTACT_NOTIFICATION_FROM || DEFAULT_FROM,
  to: env.CONTACT_NOTIFICATION_TO || DEFAULT_TO,
})

/** An email to the agency. */
export type AgencyEmail = ReturnType<typeof agencyAddresses> & {
  subject: string
  text: string
  replyTo?: { name: string; address: string }
}

/** One line of a header: no CR/LF a visitor could use to add headers. */
export const singleLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ')

export async function deliver(message: AgencyEmail, env: FunctionEnv): Promise<{ via: 'smtp' | 'outbox'; id: string }> {
  const smtpUrl = env.SMTP_URL
  if (smtpUrl) {
    const info = await nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }).sendMail(message)
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

export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-retry-count, traceparent, tracestate, baggage',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

export function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  })
}

export function log(entry: Record<string, unknown>) {
  console.log(JSON.stringify({ time: new Date().toISOString(), fn: 'send-contact-email', ...entry }))
}
