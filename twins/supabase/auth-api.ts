import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { sendJson } from '../http-kit.ts'
import { createUserAdmin } from './auth-admin.ts'
import { createRecovery, type RecoveryOptions } from './auth-recovery.ts'
import { createSessions, type SessionOptions } from './auth-sessions.ts'
import { authError, userJson, type AnswerHeaders } from './auth-users.ts'
import { parseJsonBody } from './gateway.ts'

/*
 * /auth/v1: the GoTrue endpoints supabase-js calls (twins/docs/supabase-wire.md §5), routed to their
 * concern: sessions (auth-sessions.ts: password sign-in, refresh-token rotation with reuse detection,
 * current user, logout), password recovery (auth-recovery.ts) and admin user management (auth-admin.ts). Passwords are bcrypt hashes,
 * computed off the request thread (password-hasher.ts); access tokens are HS256 JWTs with GoTrue's claims.
 */

export type AuthOptions = SessionOptions & {
  recovery: Pick<RecoveryOptions, 'config' | 'throttle' | 'smtpUrl'>
}

type AuthContext = { role: string; address: string; headers: AnswerHeaders }

export function createAuthApi(database: Database, options: AuthOptions) {
  const sessions = createSessions(database, options)
  const admin = createUserAdmin(database, options)
  const recovery = createRecovery(database, sessions, { ...options.recovery, hasher: options.hasher, log: options.log })

  async function route(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    body: string,
    context: AuthContext,
    headers: AnswerHeaders,
  ) {
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/'
    const method = request.method ?? 'GET'
    const parsed = parseJsonBody(body)
    if (!parsed.ok) {
      const message = parsed.tooDeep
        ? `Could not parse request body as JSON: ${parsed.message}`
        : 'Could not parse request body as JSON'
      return authError(response, 400, 'bad_json', message, headers)
    }
    const object = parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)
    const json = (object ? parsed.value : {}) as Record<string, unknown>

    if (path === '/settings' && method === 'GET') {
      const settings = {
        external: { email: true },
        disable_signup: true,
        mailer_autoconfirm: true,
        phone_autoconfirm: false,
      }
      return sendJson(response, 200, settings, headers)
    }
    if (path === '/token' && method === 'POST') {
      const grant = url.searchParams.get('grant_type')
      if (grant === 'password') return sessions.signInWithPassword(json, context.address, response, headers)
      if (grant === 'refresh_token') return sessions.refresh(json, response, headers)
      return authError(response, 400, 'unsupported_grant_type', 'unsupported_grant_type', headers)
    }
    if (path === '/user' && method === 'GET') {
      const current = await sessions.currentUser(request, response, headers)
      if (current) sendJson(response, 200, userJson(current.user), headers)
      return
    }
    if (path === '/user' && method === 'PUT') return recovery.updateUser(request, json, response, headers)
    if (path === '/recover' && method === 'POST') return recovery.recover(json, url, context.address, response, headers)
    if (path === '/verify' && method === 'POST') return recovery.verify(json, response, headers)
    if (path === '/logout' && method === 'POST') return sessions.logout(request, url, response, headers)
    if (path === '/signup' && method === 'POST') {
      return authError(response, 422, 'signup_disabled', 'Signups not allowed for this instance', headers)
    }

    if (path.startsWith('/admin/')) {
      if (context.role !== 'service_role') return authError(response, 403, 'not_admin', 'User not allowed', headers)
      if (path === '/admin/users' && method === 'POST') return admin.createUser(json, response, headers)
      if (path === '/admin/users' && method === 'GET') return admin.listUsers(url, response, headers)
      const match = /^\/admin\/users\/([^/]+)$/.exec(path)
      if (match && method === 'DELETE') return admin.deleteUser(match[1], response, headers)
      if (match && method === 'GET') return admin.getUser(match[1], response, headers)
      if (match && method === 'PUT') return admin.updateUser(match[1], json, response, headers)
    }
    return authError(response, 404, 'not_found', 'Not found', headers)
  }

  return async function handleAuth(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    body: string,
    context: AuthContext,
  ) {
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
}
