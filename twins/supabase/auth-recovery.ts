import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import nodemailer from 'nodemailer'
import type { Database } from './database.ts'
import { sendJson } from '../http-kit.ts'
import type { AuthProjectConfig } from './auth-config.ts'
import type { createSessions } from './auth-sessions.ts'
import {
  authError,
  couldBeEmail,
  EMAIL,
  PASSWORD_MAX_BYTES,
  tooManyRequests,
  USER_COLUMNS,
  userJson,
  type AnswerHeaders,
  type UserRow,
} from './auth-users.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { HasherBusyError, type PasswordHasher } from './password-hasher.ts'

/*
 * GoTrue's password recovery (twins/docs/supabase-wire.md §5): POST /recover emails a one-time link,
 * POST /verify {type: 'recovery', token_hash} exchanges it for a session, PUT /user sets the new
 * password. As GoTrue: /recover answers 200 {} whether or not the address has an account, a link
 * works once and for `otp_expiry` seconds (config.toml), the password follows config.toml's
 * minimum length and character classes. The email is config.toml's template, sent through the SMTP
 * server the twin is given (the mail viewer offline). Not served: GET /verify (the link's redirect
 * form), PKCE (`code_challenge`), OTP codes; a resend to the same account within `max_frequency` is
 * silently dropped rather than answered 429, which would tell who has an account.
 */

export type RecoveryOptions = {
  config: AuthProjectConfig
  hasher: PasswordHasher
  /** Requests per client address (the sign-in throttle's shape, its own counters). */
  throttle: LoginThrottle
  /** The SMTP server the emails go through; without one they are logged, not sent. */
  smtpUrl: () => string | undefined
  log: (entry: Record<string, unknown>) => void
}

type Sessions = ReturnType<typeof createSessions>

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

export function createRecovery(database: Database, sessions: Sessions, options: RecoveryOptions) {
  const { config, hasher, throttle, log } = options

  /** Whether `url` is under an allowed URL: the same origin (a look-alike host such as
   *  `site.example.evil.test` is another origin), and a path at or below the allowed one. */
  const under = (url: URL, allowed: string) => {
    try {
      const base = new URL(allowed)
      return url.origin === base.origin && url.pathname.startsWith(base.pathname)
    } catch {
      return false
    }
  }

  /** Where the link may lead: the site URL, the allowed redirect URLs, or this machine (offline sites
   *  run on any port). GoTrue falls back to the site URL, as here. */
  function redirectTarget(requested: string | null): string {
    if (!requested) return config.siteUrl
    try {
      const url = new URL(requested)
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
      const listed = [config.siteUrl, ...config.redirectUrls].some((allowed) => under(url, allowed))
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.username && (loopback || listed))
        return url.href
    } catch {
      // not a URL: the site URL
    }
    return config.siteUrl
  }

  async function send(to: string, tokenHash: string, redirectTo: string) {
    const link = (template: string) =>
      template
        .replaceAll('{{ .RedirectTo }}', redirectTo)
        .replaceAll('{{ .SiteURL }}', config.siteUrl)
        .replaceAll('{{ .TokenHash }}', tokenHash)
        .replaceAll('{{ .Email }}', escapeHtml(to))
    const smtpUrl = options.smtpUrl()
    if (!smtpUrl) return log({ event: 'auth.recover', outcome: 'no_smtp', email: to })
    await nodemailer
      .createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
      .sendMail({
        from: config.mailFrom,
        to,
        subject: config.recoveryTemplate.subject,
        html: link(config.recoveryTemplate.html),
      })
  }

  async function recover(
    body: Record<string, unknown>,
    url: URL,
    address: string,
    response: ServerResponse,
    headers: AnswerHeaders,
  ) {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
    if (!email || !EMAIL.test(email) || !couldBeEmail(email))
      return authError(response, 400, 'validation_failed', 'Unable to validate email address: invalid format', headers)
    const attempt = throttle.begin(address, email)
    if (!attempt.allowed) {
      log({ event: 'auth.recover', outcome: 'throttled', address })
      return tooManyRequests(response, attempt.retryAfterSeconds, headers)
    }
    const token = randomBytes(32).toString('base64url')
    // One statement: an account that asked within max_frequency keeps its link, and nothing is sent.
    const user = await database.asAuthAdmin(
      async (tx) =>
        (
          await tx.query<{ email: string }>(
            `update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now()
              where lower(email) = $1
                and (recovery_sent_at is null or recovery_sent_at < now() - make_interval(secs => $3))
              returning email`,
            [email, hashOf(token), config.maxFrequencySeconds],
          )
        ).rows[0],
    )
    log({ event: 'auth.recover', outcome: user ? 'sent' : 'nothing_sent', address })
    if (user) {
      try {
        await send(user.email, token, redirectTarget(url.searchParams.get('redirect_to')))
      } catch (error) {
        log({ event: 'auth.recover', outcome: 'smtp_failed', error: (error as Error).message })
        // Nobody received this link: forget it, so that asking again sends one at once.
        await database.asAuthAdmin((tx) =>
          tx.query('update auth.users set recovery_token = null, recovery_sent_at = null where recovery_token = $1', [
            hashOf(token),
          ]),
        )
        return authError(response, 500, 'unexpected_failure', 'Error sending recovery email', headers)
      }
    }
    sendJson(response, 200, {}, headers)
  }

  async function verify(body: Record<string, unknown>, response: ServerResponse, headers: AnswerHeaders) {
    const tokenHash = typeof body.token_hash === 'string' ? body.token_hash : ''
    if (body.type !== 'recovery' || !tokenHash || tokenHash.length > 200)
      return authError(response, 400, 'validation_failed', 'Only recovery links (token_hash) are served here', headers)
    // Used once: the token is cleared by the statement that finds it.
    const user = await database.asAuthAdmin(
      async (tx) =>
        (
          await tx.query<UserRow>(
            `update auth.users set recovery_token = null, updated_at = now()
              where recovery_token = $1 and recovery_sent_at > now() - make_interval(secs => $2)
              returning ${USER_COLUMNS}`,
            [hashOf(tokenHash), config.otpExpirySeconds],
          )
        ).rows[0],
    )
    if (!user) return authError(response, 403, 'otp_expired', 'Email link is invalid or has expired', headers)
    log({ event: 'auth.verify', outcome: 'recovery', user_id: user.id })
    sendJson(response, 200, await sessions.openSession(user, 'recovery'), headers)
  }

  /** Why GoTrue would refuse this password (config.toml's length and character classes), if it would. */
  function weakness(password: string): string[] {
    const reasons: string[] = []
    if (password.length < config.minimumPasswordLength) reasons.push('length')
    const classes = [/[a-z]/, /[A-Z]/, /\d/]
    if (config.requiresLowerUpperDigits && !classes.every((pattern) => pattern.test(password)))
      reasons.push('characters')
    return reasons
  }

  async function updateUser(
    request: IncomingMessage,
    body: Record<string, unknown>,
    response: ServerResponse,
    headers: AnswerHeaders,
  ) {
    const current = await sessions.currentUser(request, response, headers)
    if (!current) return
    const password = typeof body.password === 'string' ? body.password : undefined
    if (password === undefined) return sendJson(response, 200, userJson(current.user), headers)
    if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES)
      return authError(response, 422, 'validation_failed', 'Password cannot be longer than 72 characters', headers)
    const reasons = weakness(password)
    if (reasons.length) {
      const message = `Password should be at least ${config.minimumPasswordLength} characters and contain lowercase and uppercase letters and digits.`
      return sendJson(
        response,
        422,
        { code: 'weak_password', error_code: 'weak_password', msg: message, message, weak_password: { reasons } },
        headers,
      )
    }
    try {
      if (await hasher.compare(password, current.user.encrypted_password))
        return authError(
          response,
          422,
          'same_password',
          'New password should be different from the old password.',
          headers,
        )
      const hash = await hasher.hash(password)
      const updated = await database.asAuthAdmin(
        async (tx) =>
          (
            await tx.query<UserRow>(
              `update auth.users set encrypted_password = $2, updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
              [current.user.id, hash],
            )
          ).rows[0],
      )
      log({ event: 'auth.user_updated', user_id: current.user.id, fields: ['password'] })
      sendJson(response, 200, userJson(updated), headers)
    } catch (error) {
      if (!(error instanceof HasherBusyError)) throw error
      return tooManyRequests(response, 1, headers)
    }
  }

  return { recover, verify, updateUser }
}
