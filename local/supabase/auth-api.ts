import { randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { bearerToken, send, sendJson } from '../http-kit.ts'
import { parseJsonBody } from './gateway.ts'
import { JwtError, type Claims, type JwtKit } from './jwt.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { HasherBusyError, type PasswordHasher } from './password-hasher.ts'

/*
 * /auth/v1: the GoTrue endpoints supabase-js calls (local/docs/supabase-wire.md §5): password
 * sign-in, refresh-token rotation with reuse detection, current user, logout, admin user management.
 * Passwords are bcrypt hashes, computed off the request thread (password-hasher.ts); access tokens
 * are HS256 JWTs with GoTrue's claims.
 */

export const ACCESS_TOKEN_SECONDS = 3600

export type AuthOptions = {
  issuer: string
  jwt: JwtKit
  throttle: LoginThrottle
  hasher: PasswordHasher
  /** Seconds during which a just-rotated refresh token may be presented again (concurrent tabs). */
  refreshReuseIntervalSeconds: number
  log: (entry: Record<string, unknown>) => void
}

type UserRow = {
  id: string
  aud: string
  role: string
  email: string
  encrypted_password: string | null
  email_confirmed_at: string | null
  last_sign_in_at: string | null
  raw_app_meta_data: Record<string, unknown>
  raw_user_meta_data: Record<string, unknown>
  is_anonymous: boolean
  created_at: string
  updated_at: string
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at, raw_app_meta_data,
  raw_user_meta_data, is_anonymous, created_at, updated_at`

function authError(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string>) {
  // Both GoTrue formats at once (§5.2): auth-js reads `code` when the version header is present.
  sendJson(response, status, { code, error_code: code, msg: message, message }, headers)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** GoTrue's email shape check, without control characters (NUL cannot even be stored in Postgres). */
const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/
/** auth.users.email is varchar(255). */
const EMAIL_MAX = 255
/** bcrypt reads 72 bytes; GoTrue refuses longer passwords rather than ignore their end. */
const PASSWORD_MAX_BYTES = 72

/** An email a user could have (auth.users.email is varchar(255); Postgres text holds no NUL). */
const couldBeEmail = (email: string) => email.length <= EMAIL_MAX && !email.includes('\u0000')

/** GoTrue's page/per_page: digits only, else 400 "Bad Pagination Parameters". */
function paginationParam(value: string | null, fallback: number): number | null {
  if (value === null || value === '') return fallback
  return /^\d{1,9}$/.test(value) ? Number(value) : null
}

function tooManyRequests(response: ServerResponse, retryAfterSeconds: number, headers: Record<string, string>) {
  authError(response, 429, 'over_request_rate_limit', 'Request rate limit reached', { ...headers, 'Retry-After': String(retryAfterSeconds) })
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null
  return value instanceof Date ? value.toISOString() : String(value)
}

function userJson(user: UserRow) {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email,
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: '',
    confirmed_at: iso(user.email_confirmed_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: [],
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  }
}

export function createAuthApi(database: Database, options: AuthOptions) {
  const { jwt, throttle, hasher, log } = options

  async function issueSession(user: UserRow, sessionId: string, refreshToken: string) {
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
        amr: [{ method: 'password', timestamp: now }],
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

  async function signInWithPassword(body: Record<string, unknown>, address: string, response: ServerResponse, headers: Record<string, string>) {
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
      user = couldBeEmail(email) ? await database.asAuthAdmin(async (tx) => (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where lower(email) = $1`, [email])).rows[0]) : undefined
      matches = await hasher.compare(password, user?.encrypted_password ?? null)
    } catch (error) {
      attempt.withdraw()
      if (!(error instanceof HasherBusyError)) throw error
      log({ event: 'auth.sign_in', outcome: 'busy', email, address })
      return tooManyRequests(response, 1, headers)
    }
    if (!user || !matches) {
      log({ event: 'auth.sign_in', outcome: 'failure', email, address, reason: user ? 'wrong_password' : 'unknown_email' })
      return authError(response, 400, 'invalid_credentials', 'Invalid login credentials', headers)
    }
    attempt.succeeded()
    const sessionId = randomUUID()
    const refreshToken = newRefreshToken()
    const signedIn = await database.asAuthAdmin(async (tx) => {
      await tx.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sessionId, user.id])
      await tx.query('insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [refreshToken, user.id, sessionId])
      return (await tx.query<UserRow>(`update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`, [user.id])).rows[0]
    })
    log({ event: 'auth.sign_in', outcome: 'success', email, address, user_id: user.id })
    sendJson(response, 200, await issueSession(signedIn, sessionId, refreshToken), headers)
  }

  async function refresh(body: Record<string, unknown>, response: ServerResponse, headers: Record<string, string>) {
    const presented = typeof body.refresh_token === 'string' ? body.refresh_token : ''
    if (!presented) return authError(response, 400, 'validation_failed', 'refresh_token required', headers)
    // auth.refresh_tokens.token is varchar(255) text: longer tokens or NUL cannot match any row.
    if (presented.length > 255 || presented.includes('\u0000')) return authError(response, 400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found', headers)
    type TokenRow = { id: number; user_id: string; session_id: string; revoked: boolean; updated_at: Date }
    const outcome = await database.asAuthAdmin(async (tx) => {
      const token = (await tx.query<TokenRow>('select id, user_id, session_id, revoked, updated_at from auth.refresh_tokens where token = $1 for update', [presented])).rows[0]
      if (!token) return { error: 'refresh_token_not_found' as const }
      if (token.revoked) {
        const child = (await tx.query<{ token: string; created_at: Date }>('select token, created_at from auth.refresh_tokens where parent = $1 and not revoked', [presented])).rows[0]
        const withinReuse = child && Date.now() - new Date(token.updated_at).getTime() <= options.refreshReuseIntervalSeconds * 1000
        if (withinReuse) return { userId: token.user_id, sessionId: token.session_id, refreshToken: child.token }
        // Reuse outside the grace interval: assume the token leaked and end the whole session.
        await tx.query('delete from auth.sessions where id = $1', [token.session_id])
        return { error: 'refresh_token_already_used' as const }
      }
      const refreshToken = newRefreshToken()
      await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id])
      await tx.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [refreshToken, token.user_id, token.session_id, presented])
      await tx.query('update auth.sessions set updated_at = now() where id = $1', [token.session_id])
      return { userId: token.user_id, sessionId: token.session_id, refreshToken }
    })
    if ('error' in outcome) {
      const message = outcome.error === 'refresh_token_not_found' ? 'Invalid Refresh Token: Refresh Token Not Found' : 'Invalid Refresh Token: Already Used'
      log({ event: 'auth.refresh', outcome: 'failure', reason: outcome.error })
      return authError(response, 400, outcome.error ?? 'refresh_token_not_found', message, headers)
    }
    const user = await findUser(outcome.userId)
    if (!user) return authError(response, 400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found', headers)
    sendJson(response, 200, await issueSession(user, outcome.sessionId, outcome.refreshToken), headers)
  }

  async function findUser(id: string): Promise<UserRow | undefined> {
    return database.asAuthAdmin(async (tx) => (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id])).rows[0])
  }

  /** The signed-in user behind a Bearer token, checking that its session still exists. */
  async function currentUser(request: IncomingMessage, response: ServerResponse, headers: Record<string, string>): Promise<{ user: UserRow; claims: Claims } | null> {
    const token = bearerToken(request)
    if (!token) {
      authError(response, 401, 'no_authorization', 'This endpoint requires a valid Bearer token', headers)
      return null
    }
    let claims: Claims
    try {
      claims = await jwt.verify(token)
    } catch (error) {
      authError(response, 403, 'bad_jwt', error instanceof JwtError ? `invalid JWT: ${error.message}` : 'invalid JWT', headers)
      return null
    }
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') {
      authError(response, 403, 'bad_jwt', 'invalid claim: missing sub claim', headers)
      return null
    }
    const sessionAlive = await database.asAuthAdmin(async (tx) => (await tx.query('select 1 from auth.sessions where id = $1', [claims.session_id ?? null])).rows.length > 0)
    if (!sessionAlive) {
      authError(response, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist', headers)
      return null
    }
    const user = await findUser(claims.sub)
    if (!user) {
      authError(response, 403, 'user_not_found', 'User from sub claim in JWT does not exist', headers)
      return null
    }
    return { user, claims }
  }

  async function logout(request: IncomingMessage, url: URL, response: ServerResponse, headers: Record<string, string>) {
    const current = await currentUser(request, response, headers)
    if (!current) return
    const scope = url.searchParams.get('scope') ?? 'global'
    await database.asAuthAdmin(async (tx) => {
      if (scope === 'global') await tx.query('delete from auth.sessions where user_id = $1', [current.user.id])
      else if (scope === 'others') await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [current.user.id, current.claims.session_id])
      else await tx.query('delete from auth.sessions where id = $1', [current.claims.session_id])
    })
    log({ event: 'auth.logout', user_id: current.user.id, scope })
    send(response, 204, null, headers)
  }

  async function adminCreateUser(body: Record<string, unknown>, response: ServerResponse, headers: Record<string, string>) {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
    const password = typeof body.password === 'string' ? body.password : undefined
    if (email.length > EMAIL_MAX) return authError(response, 400, 'validation_failed', 'An email address is too long', headers)
    if (!EMAIL.test(email)) return authError(response, 400, 'validation_failed', 'Unable to validate email address: invalid format', headers)
    if (password !== undefined && password.length < 6) return authError(response, 422, 'weak_password', 'Password should be at least 6 characters.', headers)
    if (password !== undefined && Buffer.byteLength(password) > PASSWORD_MAX_BYTES) {
      return authError(response, 400, 'validation_failed', `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`, headers)
    }
    let hash: string | null = null
    try {
      if (password !== undefined) hash = await hasher.hash(password)
    } catch (error) {
      if (error instanceof HasherBusyError) return tooManyRequests(response, 1, headers)
      throw error
    }
    const metadata = body.user_metadata && typeof body.user_metadata === 'object' ? body.user_metadata : {}
    const created = await database.asAuthAdmin(async (tx) => {
      const exists = (await tx.query('select 1 from auth.users where lower(email) = $1', [email])).rows.length > 0
      if (exists) return null
      return (
        await tx.query<UserRow>(
          `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
           values ($1, $2, $3, case when $4 then now() end, $5, $6) returning ${USER_COLUMNS}`,
          [randomUUID(), email, hash, body.email_confirm === true, JSON.stringify({ provider: 'email', providers: ['email'] }), JSON.stringify(metadata)],
        )
      ).rows[0]
    })
    if (!created) return authError(response, 422, 'email_exists', 'A user with this email address has already been registered', headers)
    log({ event: 'auth.admin.create_user', user_id: created.id, email })
    sendJson(response, 200, userJson(created), headers)
  }

  async function adminListUsers(url: URL, response: ServerResponse, headers: Record<string, string>) {
    const page = paginationParam(url.searchParams.get('page'), 1)
    const perPage = paginationParam(url.searchParams.get('per_page'), 50)
    if (page === null || perPage === null) {
      return authError(response, 400, 'validation_failed', 'Bad Pagination Parameters: page and per_page must be non-negative integers', headers)
    }
    // As GoTrue: page 0 is the first page, and at most 1000 users a page.
    const limit = Math.min(1000, Math.max(1, perPage))
    const offset = (Math.max(1, page) - 1) * limit
    const { users, total } = await database.asAuthAdmin(async (tx) => ({
      users: (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users order by created_at limit $1 offset $2`, [limit, offset])).rows,
      total: (await tx.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0].n,
    }))
    sendJson(response, 200, { users: users.map(userJson), aud: 'authenticated' }, { ...headers, 'X-Total-Count': String(total) })
  }

  async function adminDeleteUser(id: string, response: ServerResponse, headers: Record<string, string>) {
    if (!UUID.test(id)) return authError(response, 404, 'user_not_found', 'User not found', headers)
    const deleted = await database.asAuthAdmin(async (tx) => (await tx.query<UserRow>(`delete from auth.users where id = $1 returning ${USER_COLUMNS}`, [id])).rows[0])
    if (!deleted) return authError(response, 404, 'user_not_found', 'User not found', headers)
    sendJson(response, 200, userJson(deleted), headers)
  }

  type AuthContext = { role: string; address: string; headers: Record<string, string> }

  return async function handleAuth(request: IncomingMessage, response: ServerResponse, url: URL, body: string, context: AuthContext) {
    const headers = { ...context.headers, 'X-Supabase-Api-Version': '2024-01-01' }
    try {
      await route(request, response, url, body, context, headers)
    } catch (error) {
      // Values Postgres cannot store (e.g. a NUL or a lone surrogate in user_metadata) are the
      // client's mistake: 400 with Postgres' reason, as GoTrue answers invalid input.
      const code = (error as { code?: unknown }).code
      if (typeof code !== 'string' || !code.startsWith('22')) throw error
      authError(response, 400, 'validation_failed', (error as Error).message, headers)
    }
  }

  async function route(request: IncomingMessage, response: ServerResponse, url: URL, body: string, context: AuthContext, headers: Record<string, string>) {
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/'
    const method = request.method ?? 'GET'
    const parsed = parseJsonBody(body)
    if (!parsed.ok) return authError(response, 400, 'bad_json', parsed.tooDeep ? `Could not parse request body as JSON: ${parsed.message}` : 'Could not parse request body as JSON', headers)
    const json = (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? parsed.value : {}) as Record<string, unknown>

    if (path === '/settings' && method === 'GET') {
      return sendJson(response, 200, { external: { email: true }, disable_signup: true, mailer_autoconfirm: true, phone_autoconfirm: false }, headers)
    }
    if (path === '/token' && method === 'POST') {
      const grant = url.searchParams.get('grant_type')
      if (grant === 'password') return signInWithPassword(json, context.address, response, headers)
      if (grant === 'refresh_token') return refresh(json, response, headers)
      return authError(response, 400, 'unsupported_grant_type', 'unsupported_grant_type', headers)
    }
    if (path === '/user' && method === 'GET') {
      const current = await currentUser(request, response, headers)
      if (current) sendJson(response, 200, userJson(current.user), headers)
      return
    }
    if (path === '/logout' && method === 'POST') return logout(request, url, response, headers)
    if (path === '/signup' && method === 'POST') return authError(response, 422, 'signup_disabled', 'Signups not allowed for this instance', headers)

    if (path.startsWith('/admin/')) {
      if (context.role !== 'service_role') return authError(response, 403, 'not_admin', 'User not allowed', headers)
      if (path === '/admin/users' && method === 'POST') return adminCreateUser(json, response, headers)
      if (path === '/admin/users' && method === 'GET') return adminListUsers(url, response, headers)
      const match = /^\/admin\/users\/([^/]+)$/.exec(path)
      if (match && method === 'DELETE') return adminDeleteUser(match[1], response, headers)
      if (match && method === 'GET') {
        const user = UUID.test(match[1]) ? await findUser(match[1]) : undefined
        return user ? sendJson(response, 200, userJson(user), headers) : authError(response, 404, 'user_not_found', 'User not found', headers)
      }
    }
    return authError(response, 404, 'not_found', 'Not found', headers)
  }
}
