import fc from 'fast-check'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createContactSchema } from '@/lib/contact/contact-schema'
import fr from '@/messages/fr.json'
import { startTestSupabase, type TestSupabase } from './local-supabase'

/*
 * Property-based bad input (200 random cases each in the test command, fresh ones every run;
 * `npm run test:properties` runs 2,000): whatever a client sends, the insert answers 4xx for
 * invalid payloads and stores nothing, stores valid ones exactly once; the function sends one email
 * per stored message, with the stored text, and nothing else; neither ever answers 5xx. The insert's
 * oracle is the shared zod schema, applied after PostgREST's documented JSON → text coercion
 * (json_populate_recordset turns a number or object into its JSON text).
 */

// The test command's sample: each run draws new cases, so CI's runs add up to far more than one sample;
// a change to the schema, the insert or the function deserves `npm run test:properties` (PROPERTY_RUNS).
const RUNS = Number(process.env.PROPERTY_RUNS) || 200
const TEXT_COLUMNS = ['name', 'email', 'phone', 'message', 'package'] as const
const wellFormed = (value: string) => value.toWellFormed()

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }).map(wellFormed),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      'é',
      ' ',
      '\t',
      '\n',
      '\u0000',
      '\u00a0',
      '\u200b',
      '\u2028',
      '\ufeff',
      '😀',
      '@',
      '.',
      '"',
      "'",
      '<',
      '\\',
    ),
    maxLength: 1100,
  }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    ' \t\n',
    '\u00a0Jo\u00a0',
    'x'.repeat(5000),
    '<script>alert(1)</script>',
    "'; drop table contact_submissions; --",
  ),
)
const anyJson = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
)
const field = (plausible: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 20, arbitrary: plausible },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )

const plausible = {
  name: fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: 3, maxLength: 100 }) },
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
    text,
  ),
  email: fc.oneof(
    { weight: 3, arbitrary: fc.emailAddress() },
    fc.emailAddress().map((email) => ` ${email}\n`),
    text,
  ),
  phone: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(null, '', '06 12 34 56 78') },
    fc.stringMatching(/^\+?[0-9 ]{0,24}$/),
    text,
  ),
  message: fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: 12, maxLength: 1000 }) },
    fc.string({ unit: 'grapheme', minLength: 5, maxLength: 500 }),
    text,
  ),
  package: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(null, 'Starter', 'Growth', 'Enterprise', '') }, text),
}

const payloadArbitrary = fc.record({
  name: field(plausible.name),
  email: field(plausible.email),
  phone: field(plausible.phone),
  message: field(plausible.message),
  package: field(plausible.package),
  extra: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('id', 'is_read', 'created_at', 'admin', 'website', 'Name') },
  ),
  extraValue: anyJson,
})

type Payload = Record<string, unknown>

function toPayload(generated: typeof payloadArbitrary extends fc.Arbitrary<infer T> ? T : never): Payload {
  const payload: Payload = {}
  for (const column of TEXT_COLUMNS) if (generated[column] !== undefined) payload[column] = generated[column]
  if (generated.extra) payload[generated.extra] = generated.extraValue
  return payload
}

/** What PostgREST stores for a JSON value in a text column. */
const asText = (value: unknown): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : typeof value === 'string' ? value : JSON.stringify(value)

/** The row the database should store, or null when it must refuse the payload. */
function expectedRow(payload: Payload) {
  if (Object.keys(payload).some((key) => !(TEXT_COLUMNS as readonly string[]).includes(key))) return null
  const values = Object.fromEntries(TEXT_COLUMNS.map((column) => [column, asText(payload[column])]))
  if (Object.values(values).some((value) => typeof value === 'string' && value.includes('\u0000'))) return null // Postgres text cannot hold NUL
  const parsed = createContactSchema({ variant: 'page', messages: fr.ContactForm.rules }).safeParse({
    name: values.name ?? undefined,
    email: values.email ?? undefined,
    phone: values.phone ?? undefined,
    message: values.message ?? undefined,
    package: values.package ?? null,
  })
  if (!parsed.success) return null
  return {
    name: parsed.data.name,
    email: parsed.data.email,
    phone: parsed.data.phone || null,
    message: parsed.data.message,
    package: parsed.data.package || null,
  }
}

let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase({
    contactRateLimit: 1_000_000,
    loginThrottle: { maxPerPair: 1e9, maxPerAddress: 1e9, maxPerEmail: 1e9 },
    passwordHasher: { maxQueued: 1000 },
  })
})
afterAll(() => test.close())

describe('property: bad input on the insert', () => {
  it(`${RUNS} random payloads: 4xx and nothing stored when invalid, stored exactly once when valid, never 5xx`, async () => {
    const client = test.anon()
    let valid = 0
    await fc.assert(
      fc.asyncProperty(payloadArbitrary, async (generated) => {
        const payload = toPayload(generated)
        const expected = expectedRow(payload)
        const before = (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n as number
        const { status } = await client.from('contact_submissions').insert(payload)
        const after = await test.stored(
          'select name, email, phone, message, package from public.contact_submissions order by created_at desc, id limit 1',
        )
        const count = (await test.stored('select count(*)::int as n from public.contact_submissions'))[0].n as number
        expect(status).toBeLessThan(500)
        if (expected) {
          valid++
          expect(status).toBe(201)
          expect(count).toBe(before + 1)
          expect(after[0]).toEqual(expected)
        } else {
          expect(status).toBeGreaterThanOrEqual(400)
          expect(count).toBe(before)
        }
      }),
      { numRuns: RUNS },
    )
    // The generator must exercise both sides, or the property proves little.
    expect(valid).toBeGreaterThan(RUNS * 0.1)
    expect(valid).toBeLessThan(RUNS * 0.9)
  }, 300_000)
})

describe('property: bad input on send-contact-email', () => {
  it(`${RUNS} random bodies: one email per stored message and only for it, 404/409/400 otherwise, never 5xx`, async () => {
    const outbox = mkdtempSync(join(tmpdir(), 'outbox-prop-'))
    const savedEnv = { ...process.env }
    process.env.OUTBOX_DIR = outbox
    delete process.env.SMTP_URL
    const notified: string[] = []
    let stored = 0
    const bodyArbitrary = fc.record({
      target: fc.constantFrom('fresh', 'fresh', 'fresh', 'notified', 'unknown', 'junk', 'none'),
      junkId: fc.oneof(anyJson, fc.uuid()),
      copies: payloadArbitrary,
      website: fc.oneof(fc.constant(''), text),
      fillTime: anyJson,
      wrapper: fc.constantFrom('object', 'object', 'object', 'array', 'string'),
    })
    let sent = 0
    try {
      await fc.assert(
        fc.asyncProperty(bodyArbitrary, async ({ target, junkId, copies, website, fillTime, wrapper }) => {
          let id: unknown = undefined
          let marker: string | null = null
          if (target === 'fresh') {
            marker = `prop-${++stored}@example.fr`
            id = randomUUID()
            // As an operator (no webhook): the property's calls are the database's own.
            const insert = await test
              .service()
              .from('contact_submissions')
              .insert({ id, name: 'Stored Visitor', email: marker, message: 'The stored message, not a copy.' })
            expect(insert.error).toBeNull()
          } else if (target === 'notified' && notified.length) id = notified[notified.length - 1]
          else if (target === 'unknown') id = randomUUID()
          else if (target === 'junk') id = junkId
          const object: Payload = { ...toPayload(copies), website, _meta: { fillTime } }
          if (id !== undefined) object.id = id
          const body = wrapper === 'object' ? object : wrapper === 'array' ? [object] : JSON.stringify(object)
          const validId = wrapper === 'object' && z.uuid().safeParse(id).success
          const expected = !validId ? 400 : marker ? 200 : notified.includes(id as string) ? 409 : 404
          const response = await fetch(`${test.server.url}/functions/v1/send-contact-email`, {
            method: 'POST',
            headers: {
              apikey: test.server.serviceRoleKey,
              Authorization: `Bearer ${test.server.serviceRoleKey}`,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify(body),
          })
          await response.arrayBuffer()
          expect(response.status).toBe(expected)
          if (expected === 200) {
            sent++
            notified.push(id as string)
            const newest = readdirSync(outbox).sort().at(-1)!
            const email = readFileSync(join(outbox, newest), 'utf8')
            expect(email).toContain(marker)
            expect(email).toContain('Stored Visitor')
          }
          expect(readdirSync(outbox)).toHaveLength(sent)
        }),
        { numRuns: RUNS },
      )
      // The generator must send some: about a quarter of its bodies (3/7 fresh × 3/5 an object) name
      // a fresh message. A bound of a fifth failed about one run in thirty at 200 runs (it is under two
      // standard deviations away); a tenth is five, whatever the draw.
      expect(sent).toBeGreaterThan(RUNS * 0.1)
    } finally {
      process.env = savedEnv
      rmSync(outbox, { recursive: true, force: true })
    }
  }, 300_000)
})

describe('property: bad input on the auth API', () => {
  const AUTH_RUNS = 300
  it(`${AUTH_RUNS} random bodies and queries on sign-in, refresh and admin users: 2xx or 4xx in GoTrue's shape, never 5xx`, async () => {
    const call = fc.record({
      endpoint: fc.constantFrom(
        'POST /token?grant_type=password',
        'POST /token?grant_type=refresh_token',
        'POST /admin/users',
        'GET /admin/users',
        'GET /admin/users/',
        'DELETE /admin/users/',
      ),
      body: fc.dictionary(
        fc.constantFrom('email', 'password', 'refresh_token', 'user_metadata', 'email_confirm', 'app_metadata'),
        anyJson,
        { maxKeys: 4 },
      ),
      query: fc.oneof(text, fc.constantFrom('Infinity', '-1', '0', '1e3', '99999999999999999999', 'NaN', '2')),
      id: fc.oneof(text, fc.uuid(), fc.constant('-'.repeat(36))),
    })
    await fc.assert(
      fc.asyncProperty(call, async ({ endpoint, body, query, id }) => {
        const [method, path] = endpoint.split(' ')
        const suffix =
          path === '/admin/users' && method === 'GET'
            ? `?page=${encodeURIComponent(query)}&per_page=${encodeURIComponent(query)}`
            : path.endsWith('/')
              ? encodeURIComponent(id)
              : ''
        const response = await fetch(`${test.server.url}/auth/v1${path}${suffix}`, {
          method,
          headers: {
            apikey: test.server.serviceRoleKey,
            Authorization: `Bearer ${test.server.serviceRoleKey}`,
            'Content-Type': 'application/json',
          },
          body: method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(body),
        })
        const answer = (await response.json()) as Record<string, unknown>
        expect(response.status).toBeLessThan(500)
        if (response.status >= 400)
          expect(answer).toMatchObject({
            code: expect.anything(),
            msg: expect.any(String),
            message: expect.any(String),
          })
      }),
      { numRuns: AUTH_RUNS },
    )
  }, 300_000)
})
