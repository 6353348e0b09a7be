import { describe, expect, it } from 'vitest'
import { BackendsConfigError, backendsFromEnv } from '@/lib/backends'

// The door: the services the environment names, nothing else (no default service, no twin), and a
// clear refusal of a missing or invalid variable.
const hosted = {
  NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de',
  NEXT_PUBLIC_SUPABASE_URL: 'https://xyz.supabase.co/',
  NEXT_PUBLIC_SUPABASE_ANON_KEY: 'anon',
}

describe('backendsFromEnv', () => {
  it("a hosted project on Sanity's defaults: the project host, its CDN, the image CDN", () => {
    const { sanity, supabase } = backendsFromEnv(hosted)
    expect(sanity).toEqual({
      projectId: 'abc123de',
      dataset: 'production',
      apiVersion: '2025-10-01',
      apiHost: 'https://api.sanity.io',
      serverApiUrl: 'https://abc123de.api.sanity.io',
      cdnUrl: 'https://cdn.sanity.io',
      apiOrigins: ['https://api.sanity.io', 'https://abc123de.api.sanity.io', 'https://abc123de.apicdn.sanity.io'],
      assetOrigins: ['https://cdn.sanity.io'],
    })
    expect(supabase).toEqual({ url: 'https://xyz.supabase.co', anonKey: 'anon' })
  })

  it('every address as the variables give it (what the local services hand over, or a staging API)', () => {
    const { sanity } = backendsFromEnv({
      ...hosted,
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'local',
      NEXT_PUBLIC_SANITY_API_HOST: 'https://localhost:41001',
      SANITY_PROJECT_API_URL: 'http://127.0.0.1:41001/',
      NEXT_PUBLIC_SANITY_CDN_URL: 'http://127.0.0.1:41001',
    })
    expect(sanity).toMatchObject({
      apiHost: 'https://localhost:41001',
      serverApiUrl: 'http://127.0.0.1:41001',
      cdnUrl: 'http://127.0.0.1:41001',
      apiOrigins: ['https://localhost:41001', 'https://local.localhost:41001'],
      assetOrigins: ['http://127.0.0.1:41001'],
    })
  })

  it('refuses a missing or invalid variable, naming each and what to do', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        backendsFromEnv(env)
      } catch (error) {
        expect(error).toBeInstanceOf(BackendsConfigError)
        return (error as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(env)}`)
    }
    // Nothing set (or everything empty, as .env.example has it): each required variable, and `npm start`.
    for (const env of [{}, { NEXT_PUBLIC_SANITY_PROJECT_ID: '', NEXT_PUBLIC_SUPABASE_URL: ' ' }] as Record<
      string,
      string
    >[]) {
      const message = refusal(env)
      for (const name of ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SUPABASE_URL', 'NEXT_PUBLIC_SUPABASE_ANON_KEY'])
        expect(message).toContain(`${name} is not set`)
      expect(message).toContain('npm start')
    }
    expect(refusal({ ...hosted, NEXT_PUBLIC_SUPABASE_URL: 'xyz.supabase.co' })).toContain(
      'NEXT_PUBLIC_SUPABASE_URL must be an http(s) URL',
    )
    const several = refusal({
      ...hosted,
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'Not A Project!',
      NEXT_PUBLIC_SANITY_API_VERSION: 'latest',
      NEXT_PUBLIC_SANITY_API_HOST: 'api.sanity.io',
    })
    expect(several).toContain('NEXT_PUBLIC_SANITY_PROJECT_ID must be a Sanity project id')
    expect(several).toContain('NEXT_PUBLIC_SANITY_API_VERSION must be an API version date')
    expect(several).toContain('NEXT_PUBLIC_SANITY_API_HOST must be an http(s) URL')
  })
})
