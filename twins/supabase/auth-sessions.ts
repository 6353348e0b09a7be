import { randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { bearerToken, send, sendJson } from '../http-kit.ts'
import {
  authError,
  couldBeEmail,
  findUser,
  tooManyRequests,
  USER_COLUMNS,
  userJson,
  type AnswerHeaders,
  type UserRow,
} from './auth-users.ts'
import { JwtError, type Claims, type JwtKit } from './jwt.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { HasherBusyError, type PasswordHasher } from './password-hasher.ts'

/*
 * GoTrue's sessions (twins/docs/supabase-wire.md §5): password sign-in (throttled, compared off the
 * request thread), refresh-token rotation with reuse detection, the current user behind a token, and
 * logout. Access tokens are HS256 JWTs with GoTrue's claims.
 */

export const ACCESS_TOKEN_SECONDS = 3600

export type SessionOptions = {
  issuer: string
  jwt: JwtKit
  throttle: LoginThrottle
  hasher: PasswordHasher
  /** Seconds during which a just-rotated refresh token may be presented again (concurrent tabs). */
  refreshReuseIntervalSeconds: number
  log: (entry: Record<string, unknown>) => void
}

export function createSessions(database: Database, options: SessionOptions) {
  const { jwt, throttle, hasher, log } = options

  async function issueSession(user: UserRow, sessionId: string, refreshToken: string, method = 'password') {
    const now = Math.floor(Date.now() / 1000)
    const accessToken = await jwt.sign(
      {
        iss: options.issuer,
        sub: user.id,
        aud: 'authenticated',
        email: user.email,
        phone: '',
        app_metadata: user.raw_app_meta_data,
        user_metadata: user.raw_user_meta_data,
        role: 'authenticated',
        aal: 'aal1',
        amr: [{ method, timestamp: now }],
        session_id: sessionId,
        is_anonymous: false,
      },
      ACCESS_TOKEN_SECONDS,
    )
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: now + ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
      user: userJson(user),
    }
  }

  const newRefreshToken = () => randomBytes(24).toString('base64url')

  async function signInWithPassword(
    body: Record<string, unknown>,
    address: string,
    response: ServerResponse,
    headers: AnswerHeaders,
  ) {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
    const password = typeof body.password === 'string' ? body.password : ''
    if (!email || !password) return authError(response, 400, 'validation_failed', 'missing email or phone', headers)
    // Counted before the comparison: concurrent guesses cannot all pass a limit none has reached yet.
    const attempt = throttle.begin(address, email)
    if (!attempt.allowed) {
      log({ event: 'auth.sign_in', outcome: 'throttled', email, address, retry_after_s: attempt.retryAfterSeconds })
      return tooManyRequests(response, attempt.retryAfterSeconds, headers)
    }
    let user: UserRow | undefined
    let matches: boolean
    try {
      user = couldBeEmail(email)
        ? await database.asAuthAdmin(
            async (tx) =>
              (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where lower(email) = $1`, [email]))
                .rows[0],
          )
        : undefined
      matches = await hasher.compare(password, user?.encrypted_password ?? null)
    } catch (error) {
      attempt.withdraw()
      if (!(error instanceof HasherBusyError)) throw error
      log({ event: 'auth.sign_in', outcome: 'busy', email, address })
      return tooManyRequests(response, 1, headers)
    }
    if (!user || !matches) {
      log({
        event: 'auth.sign_in',
        outcome: 'failure',
        email,
        address,
        reason: user ? 'wrong_password' : 'unknown_email',
      })
      return authError(response, 400, 'invalid_credentials', 'Invalid login credentials', headers)
    }
    attempt.succeeded()
    log({ event: 'auth.sign_in', outcome: 'success', email, address, user_id: user.id })
    sendJson(response, 200, await openSession(user, 'password'), headers)
  }

  /** A new session for `user` (signed in by `method`: a password, a recovery link), as /token answers it. */
  async function openSession(user: UserRow, method: string) {
    const sessionId = randomUUID()
    const refreshToken = newRefreshToken()
    const signedIn = await database.asAuthAdmin(async (tx) => {
      await tx.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sessionId, user.id])
      await tx.query('insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [
        refreshToken,
        user.id,
        sessionId,
      ])
      return (
        await tx.query<UserRow>(
          `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
          [user.id],
        )
      ).rows[0]
    })
    return issueSession(signedIn, sessionId, refreshToken, method)
  }

  async function refresh(body: Record<string, unknown>, response: ServerResponse, headers: AnswerHeaders) {
    const presented = typeof body.refresh_token === 'string' ? body.refresh_token : ''
    if (!presented) return authError(response, 400, 'validation_failed', 'refresh_token required', headers)
    const notFound = 'Invalid Refresh Token: Refresh Token Not Found'
    // auth.refresh_tokens.token is varchar(255) text: longer tokens or NUL cannot match any row.
    if (presented.length > 255 || presented.includes('\u0000')) {
      return authError(response, 400, 'refresh_token_not_found', notFound, headers)
    }
    type TokenRow = { id: number; user_id: string; session_id: string; revoked: boolean; updated_at: Date }
    const outcome = await database.asAuthAdmin(async (tx) => {
      const token = (
        await tx.query<TokenRow>(
          'select id, user_id, session_id, revoked, updated_at from auth.refresh_tokens where token = $1 for update',
          [presented],
        )
      ).rows[0]
      if (!token) return { error: 'refresh_token_not_found' as const }
      if (token.revoked) {
        const child = (
          await tx.query<{ token: string; created_at: Date }>(
            'select token, created_at from auth.refresh_tokens where parent = $1 and not revoked',
            [presented],
          )
        ).rows[0]
        const withinReuse =
          child && Date.now() - new Date(token.updated_at).getTime() <= options.refreshReuseIntervalSeconds * 1000
        if (withinReuse) return { userId: token.user_id, sessionId: token.session_id, refreshToken: child.token }
        // Reuse outside the grace interval: assume the token leaked and end the whole session.
        await tx.query('delete from auth.sessions where id = $1', [token.session_id])
        return { error: 'refresh_token_already_used' as const }
      }
      const refreshToken = newRefreshToken()
      await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id])
      await tx.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
        refreshToken,
        token.user_id,
        token.session_id,
        presented,
      ])
      await tx.query('update auth.sessions set updated_at = now() where id = $1', [token.session_id])
      return { userId: token.user_id, sessionId: token.session_id, refreshToken }
    })
    if ('error' in outcome) {
      const message = outcome.error === 'refresh_token_not_found' ? notFound : 'Invalid Refresh Token: Already Used'
      log({ event: 'auth.refresh', outcome: 'failure', reason: outcome.error })
      return authError(response, 400, outcome.error ?? 'refresh_token_not_found', message, headers)
    }
    const user = await findUser(database, outcome.userId)
    if (!user) return authError(response, 400, 'refresh_token_not_found', notFound, headers)
    sendJson(response, 200, await issueSession(user, outcome.sessionId, outcome.refreshToken), headers)
  }

  /** The signed-in user behind a Bearer token, checking that its session still exists. */
  async function currentUser(
    request: IncomingMessage,
    response: ServerResponse,
    headers: AnswerHeaders,
  ): Promise<{ user: UserRow; claims: Claims } | null> {
    const token = bearerToken(request)
    if (!token) {
      authError(response, 401, 'no_authorization', 'This endpoint requires a valid Bearer token', headers)
      return null
    }
    let claims: Claims
    try {
      claims = await jwt.verify(token)
    } catch (error) {
      const message = error instanceof JwtError ? `invalid JWT: ${error.message}` : 'invalid JWT'
      authError(response, 403, 'bad_jwt', message, headers)
      return null
    }
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') {
      authError(response, 403, 'bad_jwt', 'invalid claim: missing sub claim', headers)
      return null
    }
    const sessionAlive = await database.asAuthAdmin(
      async (tx) =>
        (await tx.query('select 1 from auth.sessions where id = $1', [claims.session_id ?? null])).rows.length > 0,
    )
    if (!sessionAlive) {
      authError(response, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist', headers)
      return null
    }
    const user = await findUser(database, claims.sub)
    if (!user) {
      authError(response, 403, 'user_not_found', 'User from sub claim in JWT does not exist', headers)
      return null
    }
    return { user, claims }
  }

  async function logout(request: IncomingMessage, url: URL, response: ServerResponse, headers: AnswerHeaders) {
    const current = await currentUser(request, response, headers)
    if (!current) return
    const scope = url.searchParams.get('scope') ?? 'global'
    await database.asAuthAdmin(async (tx) => {
      if (scope === 'global') await tx.query('delete from auth.sessions where user_id = $1', [current.user.id])
      else if (scope === 'others') {
        await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [
          current.user.id,
          current.claims.session_id,
        ])
      } else await tx.query('delete from auth.sessions where id = $1', [current.claims.session_id])
    })
    log({ event: 'auth.logout', user_id: current.user.id, scope })
    send(response, 204, null, headers)
  }

  return { signInWithPassword, openSession, refresh, currentUser, logout }
}
