import { describe, expect, it } from 'vitest'
import { BackendsConfigError, backendsFromEnv, serviceRoleKey } from '@/lib/backends'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '@plume/local-twins/defaults'

// The door: which services the environment names, the twins when it names none, and a clear refusal
// of a half-configured one.
describe('backendsFromEnv', () => {
  it('with nothing set (or everything empty, as .env.example has it): both local twins on their default ports', () => {
    for (const env of [
      {},
      { NEXT_PUBLIC_SANITY_PROJECT_ID: '', NEXT_PUBLIC_SUPABASE_URL: '', NEXT_PUBLIC_SUPABASE_ANON_KEY: ' ' },
    ]) {
      const { sanity, supabase } = backendsFromEnv(env)
      expect(sanity).toMatchObject({
        hosted: false,
        projectId: 'local',
        dataset: 'production',
        localPort: 54380,
        serverApiHost: 'http://127.0.0.1:54380',
        browserApiHost: 'https://localhost:54380',
      })
      expect(supabase).toEqual({
        local: true,
        url: 'http://127.0.0.1:54321',
        localPort: 54321,
        anonKey: LOCAL_ANON_KEY,
      })
      expect(serviceRoleKey(supabase, {})).toBe(LOCAL_SERVICE_ROLE_KEY)
    }
  })

  it('a loopback Supabase URL on another port is the twin there; a Content Lake port moves every Sanity origin', () => {
    const { sanity, supabase } = backendsFromEnv({
      NEXT_PUBLIC_SUPABASE_URL: 'http://127.0.0.1:41000/',
      NEXT_PUBLIC_SANITY_LOCAL_PORT: '41001',
    })
    expect(supabase).toMatchObject({ local: true, url: 'http://127.0.0.1:41000', localPort: 41000 })
    expect(sanity.apiOrigins).toEqual(['https://localhost:41001', 'https://local.localhost:41001'])
    expect(sanity.assetOrigins).toEqual(['http://127.0.0.1:41001'])
  })

  it('hosted services when configured: no local default leaks in', () => {
    const env = {
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de',
      NEXT_PUBLIC_SUPABASE_URL: 'https://xyz.supabase.co',
      NEXT_PUBLIC_SUPABASE_ANON_KEY: 'anon',
    }
    const { sanity, supabase } = backendsFromEnv(env)
    expect(sanity).toMatchObject({
      hosted: true,
      projectId: 'abc123de',
      localPort: null,
      serverApiHost: undefined,
      assetOrigins: ['https://cdn.sanity.io'],
    })
    expect(supabase).toEqual({ local: false, url: 'https://xyz.supabase.co', localPort: null, anonKey: 'anon' })
    expect(serviceRoleKey(supabase, {})).toBeUndefined()
    expect(serviceRoleKey(supabase, { SUPABASE_SERVICE_ROLE_KEY: 'secret' })).toBe('secret')
  })

  it('refuses a half-configured or invalid environment, naming each variable and what to do', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        backendsFromEnv(env)
      } catch (error) {
        expect(error).toBeInstanceOf(BackendsConfigError)
        return (error as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(env)}`)
    }
    expect(refusal({ NEXT_PUBLIC_SUPABASE_URL: 'https://xyz.supabase.co' })).toContain(
      'NEXT_PUBLIC_SUPABASE_ANON_KEY is empty while NEXT_PUBLIC_SUPABASE_URL names a hosted project (https://xyz.supabase.co)',
    )
    expect(refusal({ NEXT_PUBLIC_SUPABASE_ANON_KEY: 'anon' })).toContain(
      'NEXT_PUBLIC_SUPABASE_URL is empty while NEXT_PUBLIC_SUPABASE_ANON_KEY is set',
    )
    expect(refusal({ NEXT_PUBLIC_SUPABASE_URL: 'xyz.supabase.co' })).toContain(
      'NEXT_PUBLIC_SUPABASE_URL must be the API URL of a Supabase project',
    )
    const both = refusal({ NEXT_PUBLIC_SANITY_LOCAL_PORT: '99999', NEXT_PUBLIC_SANITY_API_VERSION: 'latest' })
    expect(both).toContain('NEXT_PUBLIC_SANITY_LOCAL_PORT must be a port between 1 and 65535')
    expect(both).toContain('NEXT_PUBLIC_SANITY_API_VERSION must be an API version date')
  })
})
