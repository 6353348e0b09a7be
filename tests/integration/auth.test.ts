import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInUser, startTestSupabase, type TestSupabase } from './local-supabase'

let test: TestSupabase
beforeAll(async () => {
  test = await startTestSupabase({
    refreshReuseIntervalSeconds: 0,
    loginThrottle: { maxPerPair: 3, maxPerAddress: 1000 },
  })
})
afterAll(() => test.close())

describe('auth calls the app makes', () => {
  it('signs in with a password and returns a GoTrue-shaped session; wrong passwords and unknown emails look alike', async () => {
    const { session, userId } = await signedInUser(test, 'alice@example.fr')
    expect(session.user.id).toBe(userId)
    expect(session.expires_in).toBe(3600)
    expect(session.refresh_token.length).toBeGreaterThan(20)
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString())
    expect(claims).toMatchObject({
      sub: userId,
      role: 'authenticated',
      aud: 'authenticated',
      email: 'alice@example.fr',
      iss: `${test.server.url}/auth/v1`,
    })

    const wrong = await test.anon().auth.signInWithPassword({ email: 'alice@example.fr', password: 'not-the-password' })
    const unknown = await test
      .anon()
      .auth.signInWithPassword({ email: 'nobody@example.fr', password: 'not-the-password' })
    for (const result of [wrong, unknown]) {
      expect(result.data.session).toBeNull()
      expect(result.error?.status).toBe(400)
      expect(result.error?.code).toBe('invalid_credentials')
      expect(result.error?.message).toBe('Invalid login credentials')
    }
  })

  it('logs every sign-in success and failure without the password', async () => {
    await signedInUser(test, 'logged@example.fr', { password: 'Logged-Password-77' })
    await test.anon().auth.signInWithPassword({ email: 'logged@example.fr', password: 'Wrong-Password-77' })
    const entries = test.logs.filter((entry) => entry.event === 'auth.sign_in' && entry.email === 'logged@example.fr')
    expect(entries.map((entry) => entry.outcome)).toEqual(['success', 'failure'])
    expect(JSON.stringify(test.logs)).not.toContain('Password-77')
  })

  it('getUser answers for a live session', async () => {
    const { client } = await signedInUser(test, 'bob@example.fr')
    const { data, error } = await client.auth.getUser()
    expect(error).toBeNull()
    expect(data.user?.email).toBe('bob@example.fr')
  })

  it('rotates refresh tokens and rejects a reused one, ending that session', async () => {
    const { client, session } = await signedInUser(test, 'carol@example.fr')
    const refreshed = await client.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(refreshed.data.session?.refresh_token).not.toBe(session.refresh_token)

    const thief = test.anon()
    const reuse = await thief.auth.refreshSession({ refresh_token: session.refresh_token })
    expect(reuse.error?.code).toBe('refresh_token_already_used')
    // Reuse detection revokes the whole session: the legitimate newer token is dead too.
    const after = await test.anon().auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token })
    expect(after.error?.status).toBe(400)
  })

  it('logout revokes the refresh token and the session', async () => {
    const { client, session } = await signedInUser(test, 'dave@example.fr')
    expect((await client.auth.signOut()).error).toBeNull()
    const refresh = await test.anon().auth.refreshSession({ refresh_token: session.refresh_token })
    expect(refresh.error?.status).toBe(400)
    const user = await fetch(`${test.server.url}/auth/v1/user`, {
      headers: { apikey: test.server.anonKey, Authorization: `Bearer ${session.access_token}` },
    })
    expect(user.status).toBe(403)
    expect((await user.json()).code).toBe('session_not_found')
  })

  it('admin endpoints need the service-role key', async () => {
    const asAnon = await test
      .anon()
      .auth.admin.createUser({ email: 'eve@example.fr', password: 'Whatever-Pass-1', email_confirm: true })
    expect(asAnon.error?.status).toBe(403)
    expect(asAnon.error?.code).toBe('not_admin')
    const duplicate = await test
      .service()
      .auth.admin.createUser({ email: 'alice@example.fr', password: 'Whatever-Pass-1', email_confirm: true })
    expect(duplicate.error?.code).toBe('email_exists')
  })

  it('throttles repeated failed sign-ins for one email from one address with 429 over_request_rate_limit', async () => {
    await signedInUser(test, 'frank@example.fr', { password: 'Frank-Password-99' })
    const client = test.anon()
    for (let i = 0; i < 3; i++)
      expect(
        (await client.auth.signInWithPassword({ email: 'frank@example.fr', password: `wrong-${i}` })).error?.status,
      ).toBe(400)
    const blocked = await client.auth.signInWithPassword({ email: 'frank@example.fr', password: 'Frank-Password-99' })
    expect(blocked.error?.status).toBe(429)
    expect(blocked.error?.code).toBe('over_request_rate_limit')
    // Other accounts are unaffected.
    expect(
      (await client.auth.signInWithPassword({ email: 'alice@example.fr', password: 'Correct-Horse-42!' })).error,
    ).toBeNull()
  })

  it('throttles per client address too', async () => {
    const strict = await startTestSupabase({ loginThrottle: { maxPerPair: 100, maxPerEmail: 100, maxPerAddress: 4 } })
    try {
      const client = strict.anon()
      for (let i = 0; i < 4; i++)
        await client.auth.signInWithPassword({ email: `user${i}@example.fr`, password: 'wrong-password' })
      const blocked = await client.auth.signInWithPassword({
        email: 'someone-else@example.fr',
        password: 'wrong-password',
      })
      expect(blocked.error?.code).toBe('over_request_rate_limit')
    } finally {
      await strict.close()
    }
  })

  it('refuses a forged or expired token on the REST API', async () => {
    const forged = createClient(test.server.url, test.server.anonKey, {
      auth: { persistSession: false },
      global: {
        headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.bm90LXNpZ25lZA' },
      },
    })
    const { error, status } = await forged.from('contact_submissions').select('*')
    expect(status).toBe(401)
    expect(error?.code).toBe('PGRST301')
  })
})
