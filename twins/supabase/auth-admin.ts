import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { sendJson } from '../http-kit.ts'
import {
  authError,
  EMAIL,
  EMAIL_MAX,
  findUser,
  PASSWORD_MAX_BYTES,
  tooManyRequests,
  USER_COLUMNS,
  userJson,
  UUID,
  type AnswerHeaders,
  type UserRow,
} from './auth-users.ts'
import { HasherBusyError, type PasswordHasher } from './password-hasher.ts'

/*
 * GoTrue's admin user management (/auth/v1/admin/users, the service role only; twins/docs/
 * supabase-wire.md §5): create (the password hashed off the request thread), list by page, read,
 * set a new password for, and delete one user. Inputs Postgres cannot hold or that name no user get GoTrue's 4xx, never a 500.
 */

export type AdminOptions = {
  hasher: PasswordHasher
  log: (entry: Record<string, unknown>) => void
}

/** GoTrue's page/per_page: digits only, else 400 "Bad Pagination Parameters". */
function paginationParam(value: string | null, fallback: number): number | null {
  if (value === null || value === '') return fallback
  return /^\d{1,9}$/.test(value) ? Number(value) : null
}

/** Returned once the request has been answered (a refused password, a busy hasher). */
const ANSWERED = Symbol('answered')

export function createUserAdmin(database: Database, { hasher, log }: AdminOptions) {
  /** GoTrue's checks on an admin-set password, then its hash (null: no password given). */
  async function passwordHash(
    password: string | undefined,
    response: ServerResponse,
    headers: AnswerHeaders,
  ): Promise<string | null | typeof ANSWERED> {
    if (password === undefined) return null
    if (password.length < 6) {
      authError(response, 422, 'weak_password', 'Password should be at least 6 characters.', headers)
      return ANSWERED
    }
    if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) {
      authError(
        response,
        400,
        'validation_failed',
        `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`,
        headers,
      )
      return ANSWERED
    }
    try {
      return await hasher.hash(password)
    } catch (error) {
      if (!(error instanceof HasherBusyError)) throw error
      tooManyRequests(response, 1, headers)
      return ANSWERED
    }
  }

  async function createUser(body: Record<string, unknown>, response: ServerResponse, headers: AnswerHeaders) {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
    const password = typeof body.password === 'string' ? body.password : undefined
    if (email.length > EMAIL_MAX)
      return authError(response, 400, 'validation_failed', 'An email address is too long', headers)
    if (!EMAIL.test(email)) {
      return authError(response, 400, 'validation_failed', 'Unable to validate email address: invalid format', headers)
    }
    const hash = await passwordHash(password, response, headers)
    if (hash === ANSWERED) return
    const metadata = body.user_metadata && typeof body.user_metadata === 'object' ? body.user_metadata : {}
    const created = await database.asAuthAdmin(async (tx) => {
      const exists = (await tx.query('select 1 from auth.users where lower(email) = $1', [email])).rows.length > 0
      if (exists) return null
      return (
        await tx.query<UserRow>(
          `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
           values ($1, $2, $3, case when $4 then now() end, $5, $6) returning ${USER_COLUMNS}`,
          [
            randomUUID(),
            email,
            hash,
            body.email_confirm === true,
            JSON.stringify({ provider: 'email', providers: ['email'] }),
            JSON.stringify(metadata),
          ],
        )
      ).rows[0]
    })
    if (!created) {
      return authError(
        response,
        422,
        'email_exists',
        'A user with this email address has already been registered',
        headers,
      )
    }
    log({ event: 'auth.admin.create_user', user_id: created.id, email })
    sendJson(response, 200, userJson(created), headers)
  }

  async function listUsers(url: URL, response: ServerResponse, headers: AnswerHeaders) {
    const page = paginationParam(url.searchParams.get('page'), 1)
    const perPage = paginationParam(url.searchParams.get('per_page'), 50)
    if (page === null || perPage === null) {
      const message = 'Bad Pagination Parameters: page and per_page must be non-negative integers'
      return authError(response, 400, 'validation_failed', message, headers)
    }
    // As GoTrue: page 0 is the first page, and at most 1000 users a page.
    const limit = Math.min(1000, Math.max(1, perPage))
    const offset = (Math.max(1, page) - 1) * limit
    const { users, total } = await database.asAuthAdmin(async (tx) => ({
      users: (
        await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users order by created_at limit $1 offset $2`, [
          limit,
          offset,
        ])
      ).rows,
      total: (await tx.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0].n,
    }))
    const answer = { users: users.map(userJson), aud: 'authenticated' }
    sendJson(response, 200, answer, { ...headers, 'X-Total-Count': String(total) })
  }

  /** A user by id; anything but a UUID names no user (404, not Postgres' 22P02). */
  async function getUser(id: string, response: ServerResponse, headers: AnswerHeaders) {
    const user = UUID.test(id) ? await findUser(database, id) : undefined
    if (!user) return authError(response, 404, 'user_not_found', 'User not found', headers)
    sendJson(response, 200, userJson(user), headers)
  }

  async function deleteUser(id: string, response: ServerResponse, headers: AnswerHeaders) {
    if (!UUID.test(id)) return authError(response, 404, 'user_not_found', 'User not found', headers)
    const deleted = await database.asAuthAdmin(
      async (tx) =>
        (await tx.query<UserRow>(`delete from auth.users where id = $1 returning ${USER_COLUMNS}`, [id])).rows[0],
    )
    if (!deleted) return authError(response, 404, 'user_not_found', 'User not found', headers)
    sendJson(response, 200, userJson(deleted), headers)
  }

  /** PUT /admin/users/<id>: here only a new password (what `admin:create --reset-password` sends). */
  async function updateUser(
    id: string,
    body: Record<string, unknown>,
    response: ServerResponse,
    headers: AnswerHeaders,
  ) {
    if (!UUID.test(id)) return authError(response, 404, 'user_not_found', 'User not found', headers)
    const password = typeof body.password === 'string' ? body.password : undefined
    const hash = await passwordHash(password, response, headers)
    if (hash === ANSWERED) return
    const updated = await database.asAuthAdmin(
      async (tx) =>
        (
          await tx.query<UserRow>(
            `update auth.users set encrypted_password = coalesce($2, encrypted_password), updated_at = now()
              where id = $1 returning ${USER_COLUMNS}`,
            [id, hash],
          )
        ).rows[0],
    )
    if (!updated) return authError(response, 404, 'user_not_found', 'User not found', headers)
    log({ event: 'auth.admin.update_user', user_id: id, fields: hash ? ['password'] : [] })
    sendJson(response, 200, userJson(updated), headers)
  }

  return { createUser, listUsers, getUser, updateUser, deleteUser }
}
