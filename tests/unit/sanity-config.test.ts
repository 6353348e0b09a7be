import { afterEach, describe, expect, it, vi } from 'vitest'

/*
 * The content client and the Studio configuration read their addresses from the environment, the same
 * way for a hosted project and for the local services (which hand over their own). The modules read the
 * environment when they load, so each case loads them afresh.
 */

const supabase = { NEXT_PUBLIC_SUPABASE_URL: 'https://xyz.supabase.co', NEXT_PUBLIC_SUPABASE_ANON_KEY: 'anon' }

async function loadWith(env: Record<string, string | undefined>) {
  vi.resetModules()
  for (const [key, value] of Object.entries({ ...supabase, ...env })) vi.stubEnv(key, value)
  const { createSanityClient } = await import('@/lib/sanity/client')
  const studio = (await import('@/sanity.config')).default as unknown as Record<string, unknown>
  return { client: createSanityClient().config(), studio }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the Sanity client and the Studio', () => {
  it("on Sanity's defaults: the project's own host, and the Studio on Sanity's API with its own sign-in", async () => {
    const { client, studio } = await loadWith({ NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de' })
    expect(client.projectId).toBe('abc123de')
    expect(client.url).toBe('https://abc123de.api.sanity.io/v2025-10-01')
    expect(client.perspective).toBe('published')
    expect(studio.projectId).toBe('abc123de')
    expect(studio.apiHost).toBe('https://api.sanity.io')
    // Nothing decided for the Studio that Sanity's API decides: the sign-in's providers (the chooser is
    // only skipped when there is one), features.
    expect(studio.auth).toEqual({ redirectOnSingle: true })
    for (const key of ['unstable_clientFactory', 'releases', 'tasks', 'scheduledPublishing'])
      expect(studio[key]).toBeUndefined()
    expect(studio.search).toEqual({ strategy: 'groqLegacy' })
  })

  it('at the addresses the variables give (here the local services), by the same code', async () => {
    const { client, studio } = await loadWith({
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'local',
      NEXT_PUBLIC_SANITY_API_HOST: 'https://localhost:54999',
      SANITY_PROJECT_API_URL: 'http://127.0.0.1:54999',
      SANITY_API_READ_TOKEN: 'viewer',
    })
    expect(client.url).toBe('http://127.0.0.1:54999/v2025-10-01')
    expect(client.token).toBe('viewer')
    expect(studio.apiHost).toBe('https://localhost:54999')
    expect(studio.auth).toEqual({ redirectOnSingle: true })
    expect(studio.unstable_clientFactory).toBeUndefined()
  })
})
