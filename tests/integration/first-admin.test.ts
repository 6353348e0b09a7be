import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureFirstAdmin } from '../../scripts/lib/ensure-first-admin.ts'
import { startTestSupabase, type TestSupabase } from './local-supabase'

// `npm start`'s first run on the local Supabase twin: one admin, created once, through the HTTP API.
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
