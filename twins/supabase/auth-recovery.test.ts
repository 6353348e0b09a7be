import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpReceiver, type SmtpReceiver } from '../smtp-receiver.ts'
import { clientAddress, startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * Password recovery as supabase-js calls it (resetPasswordForEmail, verifyOtp with a token hash,
 * updateUser): the project's config.toml template and policy, one email per request for an account and
 * none for an unknown address (the same answer), a link used once and dead after otp_expiry, requests
 * throttled per address.
 */

const CONFIG = `[auth]
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["https://plume.example"]
minimum_password_length = 12
password_requirements = "lower_upper_letters_digits"

[auth.email]
otp_expiry = 3600
max_frequency = "1s"

[auth.email.template.recovery]
subject = "Réinitialisez votre mot de passe"
`

let twin: TestTwin
let smtp: SmtpReceiver
const email = 'recover-admin@example.fr'
beforeAll(async () => {
  smtp = await startSmtpReceiver()
  twin = await startTestTwin({
    // No content_path: GoTrue's own template body, with the project's subject.
    files: { 'config.toml': CONFIG },
    trustedProxyHops: 2,
    functionEnvDefaults: { SMTP_URL: smtp.url },
  })
  const created = await fetch(`${twin.server.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { ...twin.service, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'Old-Password-2026', email_confirm: true }),
  })
  if (created.status !== 200) throw new Error(`creating the user: ${created.status}`)
})
afterAll(async () => {
  await twin.close()
  await smtp.close()
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${twin.server.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { ...twin.anon, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** The last email's body, quoted-printable undone where the link is. */
const lastEmail = () =>
  smtp.received
    .at(-1)!
    .raw.replace(/=\r?\n/g, '')
    .replaceAll('=3D', '=')

async function requestLink(address = clientAddress()) {
  const before = smtp.received.length
  const answer = await post(
    `/recover?redirect_to=${encodeURIComponent('http://127.0.0.1:4321/reset')}`,
    { email },
    {
      'X-Forwarded-For': address,
    },
  )
  expect(answer.status).toBe(200)
  await expect.poll(() => smtp.received.length).toBe(before + 1)
  const raw = smtp.received
    .at(-1)!
    .raw.replace(/=\r?\n/g, '')
    .replaceAll('=3D', '=')
  return /token_hash=([\w-]+)/.exec(raw)![1]
}

describe('password recovery', () => {
  it('emails a link for an account, and gives the same answer and no email for an unknown address', async () => {
    const before = smtp.received.length
    const unknown = await post('/recover', { email: 'nobody@example.fr' })
    expect([unknown.status, await unknown.json()]).toEqual([200, {}])
    const token = await requestLink()
    expect(smtp.received.length).toBe(before + 1)
    expect(smtp.received.at(-1)!.to).toEqual([email])
    expect(lastEmail()).toContain('http://127.0.0.1:4321/reset?token_hash=')
    expect(smtp.received.at(-1)!.raw).toMatch(/^Subject: =\?UTF-8\?/m)
    expect(token.length).toBeGreaterThan(30)
  })

  it('exchanges the link once for a session that may set a password under the project policy', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)) // max_frequency: 1 s here
    const token = await requestLink()
    const verified = await post('/verify', { type: 'recovery', token_hash: token })
    expect(verified.status).toBe(200)
    const session = (await verified.json()) as { access_token: string; user: { email: string } }
    expect(session.user.email).toBe(email)
    const again = await post('/verify', { type: 'recovery', token_hash: token })
    expect([again.status, ((await again.json()) as { code: string }).code]).toEqual([403, 'otp_expired'])

    const put = (password: string) =>
      fetch(`${twin.server.url}/auth/v1/user`, {
        method: 'PUT',
        headers: {
          apikey: twin.anon.apikey,
          Authorization: `Bearer ${session.access_token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ password }),
      })
    const weak = await put('only-lowercase-letters')
    expect([weak.status, await weak.json()]).toMatchObject([
      422,
      { code: 'weak_password', weak_password: { reasons: ['characters'] } },
    ])
    expect((await put('New-Password-2027')).status).toBe(200)
    const signIn = await post('/token?grant_type=password', { email, password: 'New-Password-2027' })
    expect(signIn.status).toBe(200)
  })

  it('refuses a link older than otp_expiry', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const token = await requestLink()
    await twin.server.database.db.exec(
      `update auth.users set recovery_sent_at = now() - interval '61 minutes' where email = '${email}'`,
    )
    expect((await post('/verify', { type: 'recovery', token_hash: token })).status).toBe(403)
  })

  it('throttles requests per client address', async () => {
    const address = clientAddress()
    const statuses = []
    for (let i = 0; i < 22; i++)
      statuses.push((await post('/recover', { email: `spray-${i}@example.fr` }, { 'X-Forwarded-For': address })).status)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
  })

  it('leads a link only under an allowed URL: a look-alike host or one with credentials gets the site URL', async () => {
    for (const [requested, expected] of [
      ['https://plume.example/admin/reset', 'https://plume.example/admin/reset?token_hash='],
      ['https://plume.example.evil.test/admin/reset', 'http://127.0.0.1:3000?token_hash='],
      ['https://plume.example@evil.test/admin/reset', 'http://127.0.0.1:3000?token_hash='],
    ]) {
      await new Promise((resolve) => setTimeout(resolve, 1100)) // max_frequency: 1 s here
      const before = smtp.received.length
      await post(
        `/recover?redirect_to=${encodeURIComponent(requested)}`,
        { email },
        { 'X-Forwarded-For': clientAddress() },
      )
      await expect.poll(() => smtp.received.length).toBe(before + 1)
      expect(lastEmail(), requested).toContain(expected)
    }
  })

  it('forgets a link the mail server refused: asking again at once sends one', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100))
    smtp.refuse(true)
    try {
      const refused = await post('/recover', { email }, { 'X-Forwarded-For': clientAddress() })
      expect(refused.status).toBe(500)
    } finally {
      smtp.refuse(false)
    }
    // Within max_frequency of the failed attempt: not taken for a sent email.
    expect((await requestLink()).length).toBeGreaterThan(30)
  })
})
