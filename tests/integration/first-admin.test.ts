import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAdmin } from '../../scripts/lib/create-admin.ts'
import { ensureFirstAdmin } from '../../scripts/lib/ensure-first-admin.ts'
import { startTestSupabase, type TestSupabase } from './local-supabase'

// `npm start`'s first run on the local Supabase twin: one admin, created once, through the HTTP API; and
// `npm run admin:create` on an existing account, whose password changes only with --reset-password.
let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase()
})
afterAll(() => test.close())

const admins = async () =>
  (
    await test.stored(
      `select u.email from public.user_roles r join auth.users u on u.id = r.user_id where r.role = 'admin'`,
    )
  ).map((row) => row.email)

describe('ensureFirstAdmin', () => {
  it('refuses a weak ADMIN_PASSWORD and creates nobody, then creates the admin once and names the inbox', async () => {
    const options = {
      url: test.server.url,
      serviceRoleKey: test.server.serviceRoleKey,
      inboxUrl: 'http://127.0.0.1:4000/admin-panel-2024',
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await ensureFirstAdmin({ ...options, env: { ADMIN_EMAIL: 'boss@example.fr', ADMIN_PASSWORD: 'short' } })
      expect(await admins()).toEqual([])
      expect(errors.mock.calls.flat().join('\n')).toMatch(/ADMIN_PASSWORD refused/)

      await ensureFirstAdmin({ ...options, env: { ADMIN_EMAIL: 'boss@example.fr' } })
      expect(await admins()).toEqual(['boss@example.fr'])
      const message = logs.mock.calls.flat().join('\n')
      expect(message).toContain('Inbox:    http://127.0.0.1:4000/admin-panel-2024')
      expect(message).toMatch(/Password: \S{12,}/)

      logs.mockClear()
      await ensureFirstAdmin({ ...options, env: { ADMIN_EMAIL: 'other@example.fr' } })
      expect(await admins()).toEqual(['boss@example.fr'])
      expect(logs).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
      logs.mockRestore()
    }
  })
})

describe('createAdmin on an existing account', () => {
  it('keeps its password, unless asked to reset it: then the new one signs in and the old one no longer does', async () => {
    const target = { url: test.server.url, serviceRoleKey: test.server.serviceRoleKey, email: 'reset@example.fr' }
    const signsIn = async (password: string) =>
      !(await test.anon().auth.signInWithPassword({ email: target.email, password })).error
    expect(await createAdmin({ ...target, password: 'Encre-Bleue-Lundi-26' })).toMatchObject({
      created: true,
      granted: true,
    })
    expect(await createAdmin({ ...target, password: 'Encre-Verte-Mardi-27' })).toMatchObject({
      created: false,
      granted: false,
    })
    expect([await signsIn('Encre-Bleue-Lundi-26'), await signsIn('Encre-Verte-Mardi-27')]).toEqual([true, false])
    await createAdmin({ ...target, password: 'Encre-Rouge-Jeudi-28', resetPassword: true })
    expect([await signsIn('Encre-Bleue-Lundi-26'), await signsIn('Encre-Rouge-Jeudi-28')]).toEqual([false, true])
    // An account that is not an admin yet is granted the role, and says so.
    await test.stored(
      `delete from public.user_roles where user_id = (select id from auth.users where email = 'reset@example.fr')`,
    )
    expect(await createAdmin({ ...target, password: 'Encre-Verte-Mardi-27' })).toMatchObject({
      created: false,
      granted: true,
    })
    expect(await admins()).toContain(target.email)
  })
})
