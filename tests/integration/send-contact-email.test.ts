import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestSupabase, type TestSupabase } from './local-supabase'

/** An SMTP receiver on a free loopback port that keeps every message it accepts. */
async function startSmtpReceiver() {
  const received: { from: string; to: string[]; raw: string }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const BODY = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '06 12 34 56 78',
  message: 'Bonjour, je souhaite une stratégie de contenu.',
  website: '',
  package: 'Advanced',
  _meta: { fillTime: 8200 },
}

let test: TestSupabase
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
const savedEnv = { ...process.env }

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  test = await startTestSupabase()
})
afterAll(async () => {
  await test.close()
  await smtp.close()
})
afterEach(() => {
  process.env = { ...savedEnv }
})

async function invoke(body: unknown) {
  const { data, error } = await test.anon().functions.invoke('send-contact-email', { body: body as Record<string, unknown> })
  const status = error ? ((error as { context?: Response }).context?.status ?? 0) : 200
  return { data, status }
}

describe('send-contact-email', () => {
  it('delivers a real email over SMTP to the agency, with the visitor as reply-to and the package', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    process.env.CONTACT_NOTIFICATION_TO = 'agence@example.fr'
    const before = smtp.received.length
    const { status, data } = await invoke(BODY)
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true, via: 'smtp' })
    expect(smtp.received.length).toBe(before + 1)
    const mail = smtp.received.at(-1)!
    expect(mail.to).toEqual(['agence@example.fr'])
    expect(mail.raw).toMatch(/^Reply-To: "?Camille Martin"? <camille@example\.fr>/m)
    expect(mail.raw).toMatch(/^Subject: .*Camille Martin/m)
    const decoded = mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    expect(Buffer.from(decoded, 'latin1').toString('utf8')).toContain('Formule choisie : Advanced')
  })

  it('without SMTP_URL writes the email to the outbox folder', async () => {
    const outbox = mkdtempSync(join(tmpdir(), 'outbox-'))
    try {
      process.env.OUTBOX_DIR = outbox
      delete process.env.SMTP_URL
      const { status, data } = await invoke({ ...BODY, package: null })
      expect(status).toBe(200)
      expect(data).toEqual({ ok: true, via: 'outbox' })
      const files = readdirSync(outbox)
      expect(files).toHaveLength(1)
      const eml = readFileSync(join(outbox, files[0]), 'utf8')
      expect(eml).toMatch(/^Reply-To: .*<camille@example\.fr>/m)
    } finally {
      rmSync(outbox, { recursive: true, force: true })
    }
  })

  const rejected: [string, unknown][] = [
    ['the honeypot filled', { ...BODY, website: 'https://spam.example' }],
    ['a form filled in under 3 seconds', { ...BODY, _meta: { fillTime: 1200 } }],
    ['no fill time', { ...BODY, _meta: undefined }],
    ['an invalid email', { ...BODY, email: 'not-an-email' }],
    ['a message too short', { ...BODY, message: 'Court' }],
    ['a name as a number', { ...BODY, name: 12345 }],
    ['an array body', [BODY]],
    ['a string body', 'hello'],
  ]
  for (const [label, body] of rejected) {
    it(`answers 400 and sends nothing for ${label}`, async () => {
      process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
      const before = smtp.received.length
      const { status } = await invoke(body)
      expect(status).toBe(400)
      expect(smtp.received.length).toBe(before)
    })
  }

  it('answers 502 when the mail server is unreachable (the form still shows success: the message is stored)', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:9'
    const { status } = await invoke(BODY)
    expect(status).toBe(502)
  })

  it('refuses requests without a valid JWT, as verify_jwt does on Supabase', async () => {
    const response = await fetch(`${test.server.url}/functions/v1/send-contact-email`, {
      method: 'POST',
      headers: { apikey: test.server.anonKey, Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: JSON.stringify(BODY),
    })
    expect(response.status).toBe(401)
  })
})
