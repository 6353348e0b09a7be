import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { clientAddress, startTestSupabase, VALID_ROW, type TestSupabase } from './local-supabase'
import { startSmtpReceiver, type SmtpReceiver } from '@plume/twins/smtp-receiver'

/** The message a visitor stores (the form inserts it under an id it drew itself). */
const STORED = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '06 12 34 56 78',
  message: 'Bonjour, je souhaite une stratégie de contenu.',
  package: 'Advanced',
}

let test: TestSupabase
let smtp: SmtpReceiver
const savedEnv = { ...process.env }

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  test = await startTestSupabase({ contactRateLimit: 1000 })
})
afterAll(async () => {
  await test.close()
  await smtp.close()
})
afterEach(() => {
  process.env = { ...savedEnv }
})

/** Calls the function as the database's webhook does (the service-role key), or as `client`. */
async function invoke(body: unknown, client = test.service()) {
  const { data, error } = await client.functions.invoke('send-contact-email', {
    body: body as Record<string, unknown>,
  })
  const context = error ? (error as { context?: Response }).context : undefined
  return { data: context ? await context.json() : data, status: context?.status ?? (error ? 0 : 200) }
}

/**
 * Stores a message under a known id, never asked yet. As the service role, so the database asks for
 * no notification (its webhook is for visitors' inserts): the test makes the function's call itself.
 */
async function store(row: Record<string, unknown> = STORED): Promise<string> {
  const id = randomUUID()
  const { error } = await test
    .service()
    .from('contact_submissions')
    .insert({ id, ...row })
  if (error) throw error
  return id
}

/** The calls queued for pg_net (not yet made) that name this message. */
const queuedFor = (id: string) =>
  test.stored(
    `select url, headers->>'Authorization' as authorization from net.http_request_queue
      where convert_from(body, 'UTF8')::jsonb = jsonb_build_object('id', '${id}'::uuid)`,
  )

/** Stores a message as the form does (a visitor's insert, no read-back); its id, found by email. */
async function storeAsVisitor(row: Record<string, unknown>): Promise<string> {
  const { error } = await test.anon().from('contact_submissions').insert(row)
  if (error) throw error
  const [stored] = await test.stored(`select id from public.contact_submissions where email = '${row.email}'`)
  return stored.id as string
}

const decodeQuotedPrintable = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')

describe('the notification of a visitor\u2019s message', () => {
  it('is asked by the database once the message is stored: no client calls the function', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const before = smtp.received.length
    const id = await storeAsVisitor({ ...STORED, email: 'webhook@example.fr' })
    // What the insert queued for pg_net: a POST of the id to the function with the service-role key.
    expect(await queuedFor(id)).toEqual([
      {
        url: `${test.server.url}/functions/v1/send-contact-email`,
        authorization: `Bearer ${test.server.serviceRoleKey}`,
      },
    ])
    await test.server.net.drain()
    expect(smtp.received.length).toBe(before + 1)
    expect(decodeQuotedPrintable(smtp.received.at(-1)!.raw)).toContain('Email : webhook@example.fr')
    const [row] = await test.stored(
      `select notification_status, notified_at is not null as notified from public.contact_submissions where id = '${id}'`,
    )
    expect(row).toEqual({ notification_status: 'sent', notified: true })
  })

  it('is refused to a visitor who calls the function (403): nothing sent, still never asked', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const id = await store()
    const before = smtp.received.length
    expect(await invoke({ id }, test.anon())).toEqual({ status: 403, data: { error: 'forbidden' } })
    expect(smtp.received.length).toBe(before)
    const [row] = await test.stored(`select notification_status from public.contact_submissions where id = '${id}'`)
    expect(row.notification_status).toBe('never_asked')
  })

  it('never costs the message: without the Vault secrets it is stored never asked, and the schedule sends it', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    await test.stored(`update vault.secrets set name = 'project_url_moved' where name = 'project_url'`)
    let id: string
    try {
      id = await storeAsVisitor({ ...STORED, email: 'no-webhook@example.fr' })
    } finally {
      await test.stored(`update vault.secrets set name = 'project_url' where name = 'project_url_moved'`)
    }
    expect(await queuedFor(id)).toEqual([])
    // Said in the server's log, as Supabase's Postgres logs show a warning.
    const warning = `contact message ${id} stored, its notification not asked: Vault lacks project_url or`
    expect(test.logs).toContainEqual({ event: 'database.warning', message: expect.stringContaining(warning) })
    const [row] = await test.stored(`select notification_status from public.contact_submissions where id = '${id}'`)
    expect(row.notification_status).toBe('never_asked')
    // Not an operator's row, however old (it asked for nothing)…
    const operators = await store({ ...STORED, email: 'imported@example.fr' })
    await test.stored(
      `update public.contact_submissions set created_at = now() - interval '3 minutes' where id = '${operators}'`,
    )
    // …and not before the webhook has had its 2 minutes; then, the schedule's sweep takes it.
    expect((await invoke({ retry: 'due' })).data).toMatchObject({ attempted: 0 })
    await test.stored(
      `update public.contact_submissions set notification_requested_at = now() - interval '3 minutes' where id = '${id}'`,
    )
    const before = smtp.received.length
    expect((await invoke({ retry: 'due' })).data).toEqual({ ok: true, attempted: 1, sent: 1, failed: 0 })
    expect(smtp.received.length).toBe(before + 1)
  })
})

describe('send-contact-email', () => {
  it('emails the stored message to the agency, with the visitor as reply-to and the package', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    process.env.CONTACT_NOTIFICATION_TO = 'agence@example.fr'
    const id = await store()
    const before = smtp.received.length
    const { status, data } = await invoke({ id })
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true, via: 'smtp' })
    expect(smtp.received.length).toBe(before + 1)
    const mail = smtp.received.at(-1)!
    expect(mail.to).toEqual(['agence@example.fr'])
    expect(mail.raw).toMatch(/^Reply-To: "?Camille Martin"? <camille@example\.fr>/m)
    expect(mail.raw).toMatch(/^Subject: .*Camille Martin/m)
    expect(decodeQuotedPrintable(mail.raw)).toContain('Formule choisie : Advanced')
    const [row] = await test.stored(`select notified_at from public.contact_submissions where id = '${id}'`)
    expect(row.notified_at).not.toBeNull()
  })

  it('says which language to answer in: the visitor\u2019s, stored with the message', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const sent = []
    for (const row of [{ email: 'english@example.com', locale: 'en' }, { email: 'french@example.fr' }]) {
      await invoke({ id: await storeAsVisitor({ ...STORED, ...row }) })
      sent.push(decodeQuotedPrintable(smtp.received.at(-1)!.raw))
    }
    expect(sent[0]).toContain('Écrit en anglais depuis la version anglaise du site (/en) : répondez en anglais.')
    expect(sent[1]).not.toContain('anglais')
  })

  it('sends the stored row, never the copies a request carries (no relay of arbitrary text or reply-to)', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const id = await store()
    const { status } = await invoke({
      id,
      name: 'Mallory',
      email: 'mallory@evil.example',
      message: 'Buy now at evil.example',
      package: 'Spam',
      website: '',
      _meta: { fillTime: 9999 },
    })
    expect(status).toBe(200)
    const raw = decodeQuotedPrintable(smtp.received.at(-1)!.raw)
    expect(raw).toContain('camille@example.fr')
    expect(raw).toContain(STORED.message)
    expect(raw).not.toMatch(/Mallory|mallory@evil|evil\.example|Spam/)
  })

  it('notifies each message once: a second call answers 409 and sends nothing', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const id = await store()
    expect((await invoke({ id })).status).toBe(200)
    const before = smtp.received.length
    const again = await Promise.all([invoke({ id }), invoke({ id })])
    expect(again.map((result) => result.status)).toEqual([409, 409])
    expect(again[0].data).toEqual({ error: 'already_notified' })
    expect(smtp.received.length).toBe(before)
  })

  it('of concurrent calls for one new message, exactly one sends', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const id = await store()
    const before = smtp.received.length
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => invoke({ id }))))
      .map((result) => result.status)
      .sort()
    expect(statuses).toEqual([200, 409, 409, 409, 409])
    expect(smtp.received.length).toBe(before + 1)
  })

  it('without SMTP_URL writes the email to the outbox folder; invisible characters in the message appear as marks', async () => {
    const outbox = mkdtempSync(join(tmpdir(), 'outbox-'))
    try {
      process.env.OUTBOX_DIR = outbox
      delete process.env.SMTP_URL
      const id = await store({ ...STORED, package: null, message: 'Ouvrez la pièce \u202egnp.exe, merci.' })
      const { status, data } = await invoke({ id })
      expect(status).toBe(200)
      expect(data).toEqual({ ok: true, via: 'outbox' })
      const files = readdirSync(outbox)
      expect(files).toHaveLength(1)
      const eml = readFileSync(join(outbox, files[0]), 'utf8')
      expect(eml).toMatch(/^Reply-To: .*<camille@example\.fr>/m)
      expect(decodeQuotedPrintable(eml)).toContain('Ouvrez la pièce [U+202E]gnp.exe, merci.')
      expect(decodeQuotedPrintable(eml)).not.toContain('\u202e')
    } finally {
      rmSync(outbox, { recursive: true, force: true })
    }
  })

  const rejected: [string, unknown, number][] = [
    ['no stored message with that id', { id: '5f0c1a52-3c5e-4b9e-9d0e-3f1f2b7c8d9a' }, 404],
    ['the old body (text and reply-to, no id)', { ...STORED, website: '', _meta: { fillTime: 8200 } }, 400],
    ['an id that is not a UUID', { id: "1' or '1'='1" }, 400],
    ['an id of the wrong type', { id: 42 }, 400],
    ['an array body', [{ id: '5f0c1a52-3c5e-4b9e-9d0e-3f1f2b7c8d9a' }], 400],
    ['a string body', 'hello', 400],
  ]
  for (const [label, body, expected] of rejected) {
    it(`answers ${expected} and sends nothing for ${label}`, async () => {
      process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
      const before = smtp.received.length
      const { status } = await invoke(body)
      expect(status).toBe(expected)
      expect(smtp.received.length).toBe(before)
    })
  }

  it('answers 502 when the mail server is unreachable and records why; the same call does not send it again', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:9'
    const id = await store()
    expect(await invoke({ id })).toEqual({ status: 502, data: { error: 'delivery_failed' } })
    const [row] = await test.stored(
      `select notified_at, notification_status, notification_error, notification_attempts,
              notification_next_attempt_at > now() and notification_next_attempt_at <= now() + interval '1 minute' as retry_within_a_minute
         from public.contact_submissions where id = '${id}'`,
    )
    expect(row).toMatchObject({
      notified_at: null,
      notification_status: 'delivery_failed',
      notification_attempts: 1,
      retry_within_a_minute: true,
    })
    // The technical reason is the administrator's (the visitor's answer above says nothing of it).
    expect(row.notification_error).toMatch(/ECONNREFUSED/)
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`
    const before = smtp.received.length
    expect(await invoke({ id })).toEqual({ status: 409, data: { error: 'notification_failed' } })
    expect(smtp.received.length).toBe(before)
  })

  it('refuses requests without a valid JWT, as verify_jwt does on Supabase', async () => {
    const response = await fetch(`${test.server.url}/functions/v1/send-contact-email`, {
      method: 'POST',
      headers: { apikey: test.server.anonKey, Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: await store() }),
    })
    expect(response.status).toBe(401)
  })
})

describe('send-contact-email is not an open mail relay', () => {
  let relay: TestSupabase
  let outbox: string
  beforeAll(async () => {
    // The default limit (5 messages per address per 10 minutes), behind one trusted proxy.
    relay = await startTestSupabase({ trustedProxyHops: 2 })
    outbox = mkdtempSync(join(tmpdir(), 'outbox-relay-'))
  })
  // Each test's environment: the file's afterEach puts the saved one back after every test.
  beforeEach(() => {
    process.env.OUTBOX_DIR = outbox
    delete process.env.SMTP_URL
  })
  afterAll(async () => {
    rmSync(outbox, { recursive: true, force: true })
    await relay.close()
  })

  async function notify(address: string, body: unknown) {
    const response = await fetch(`${relay.server.url}/functions/v1/send-contact-email`, {
      method: 'POST',
      headers: {
        apikey: relay.server.anonKey,
        Authorization: `Bearer ${relay.server.anonKey}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': address,
      },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: await response.json() }
  }

  it('any text with any Reply-To, without a stored message: 400, nothing sent', async () => {
    const spam = {
      name: 'Relay',
      email: 'victim@example.org',
      message: 'Any text the sender likes, at any rate.',
      website: '',
      _meta: { fillTime: 999_999 },
    }
    for (let i = 0; i < 20; i++) expect((await notify(clientAddress(), spam)).status).toBe(400)
    expect(readdirSync(outbox)).toHaveLength(0)
  })

  it('an address refused by the insert limit gets nothing more sent: one email per stored message, and only five are stored', async () => {
    const address = clientAddress()
    const client = relay.anon({ 'X-Forwarded-For': address })
    const ids: string[] = []
    for (let i = 0; i < 6; i++) {
      const id = randomUUID()
      const { status } = await client
        .from('contact_submissions')
        .insert({ id, ...VALID_ROW, email: `relay-${i}@example.fr` })
      expect(status).toBe(i < 5 ? 201 : 429)
      ids.push(id)
    }
    // The database asks for the five stored messages' notifications.
    await relay.server.net.drain()
    // A visitor's own calls, with other text or for the refused message, from any address: refused.
    for (const id of ids) {
      expect((await notify(address, { id, email: 'victim@example.org', message: 'Replaced text?' })).status).toBe(403)
      expect((await notify(clientAddress(), { id })).status).toBe(403)
    }
    const emails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8'))
    expect(emails).toHaveLength(5)
    for (const email of emails) expect(email).not.toContain('victim@example.org')
  })
})
