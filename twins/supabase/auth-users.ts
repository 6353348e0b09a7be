import type { ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { sendJson } from '../http-kit.ts'

/*
 * What the auth endpoints share (auth-sessions.ts, auth-admin.ts): auth.users rows and the user JSON
 * GoTrue answers with, GoTrue's error shape, and the checks on what an email or a password may be.
 */

export type UserRow = {
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

export const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at, raw_app_meta_data,
  raw_user_meta_data, is_anonymous, created_at, updated_at`

/** The response headers every auth answer carries (CORS, the API version). */
export type AnswerHeaders = Record<string, string>

export function authError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: AnswerHeaders,
) {
  // Both GoTrue formats at once (§5.2): auth-js reads `code` when the version header is present.
  sendJson(response, status, { code, error_code: code, msg: message, message }, headers)
}

export function tooManyRequests(response: ServerResponse, retryAfterSeconds: number, headers: AnswerHeaders) {
  authError(response, 429, 'over_request_rate_limit', 'Request rate limit reached', {
    ...headers,
    'Retry-After': String(retryAfterSeconds),
  })
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** GoTrue's email shape check, without control characters (NUL cannot even be stored in Postgres). */
export const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/
/** auth.users.email is varchar(255). */
export const EMAIL_MAX = 255
/** bcrypt reads 72 bytes; GoTrue refuses longer passwords rather than ignore their end. */
export const PASSWORD_MAX_BYTES = 72

/** An email a user could have (auth.users.email is varchar(255); Postgres text holds no NUL). */
export const couldBeEmail = (email: string) => email.length <= EMAIL_MAX && !email.includes('\u0000')

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null
  return value instanceof Date ? value.toISOString() : String(value)
}

/** A user as GoTrue answers it (sessions, /user, the admin endpoints). */
export function userJson(user: UserRow) {
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

export async function findUser(database: Database, id: string): Promise<UserRow | undefined> {
  return database.asAuthAdmin(
    async (tx) => (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id])).rows[0],
  )
}
