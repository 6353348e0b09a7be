import { afterEach, describe, expect, it, vi } from 'vitest'

/*
 * The content client and the Studio configuration in both modes: a hosted project when
 * NEXT_PUBLIC_SANITY_PROJECT_ID is set, the local Content Lake otherwise. The modules read the
 * environment when they load, so each case loads them afresh.
 */

async function loadWith(env: Record<string, string | undefined>) {
  vi.resetModules()
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value)
  const { createSanityClient } = await import('@/lib/sanity/client')
  const studio = (await import('@/sanity.config')).default as unknown as Record<string, unknown>
  return { client: createSanityClient().config(), studio }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('hosted project', () => {
  it('reads the hosted Content Lake through the project host name, and leaves the Studio on Sanity defaults', async () => {
    const { client, studio } = await loadWith({
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de',
      NEXT_PUBLIC_SANITY_DATASET: 'production',
    })
    expect(client.projectId).toBe('abc123de')
    expect(client.apiHost).toBe('https://api.sanity.io')
    expect(client.useProjectHostname).toBe(true)
    expect(client.perspective).toBe('published')
    expect(studio.projectId).toBe('abc123de')
    expect(studio.apiHost).toBeUndefined()
    expect(studio.auth).toBeUndefined()
    expect(studio.unstable_clientFactory).toBeUndefined()
    expect(studio.search).toBeUndefined()
  })
})

describe('no project configured', () => {
  it('reads the local Content Lake over plain HTTP on its port, without a project subdomain', async () => {
    const { client } = await loadWith({ NEXT_PUBLIC_SANITY_PROJECT_ID: '', NEXT_PUBLIC_SANITY_LOCAL_PORT: '54999' })
    expect(client.projectId).toBe('local')
    expect(client.apiHost).toBe('http://127.0.0.1:54999')
    expect(client.useProjectHostname).toBe(false)
    expect(client.perspective).toBe('published')
  })

  it('points the Studio at the HTTP/2 side, signed in by token, with a client without project subdomain', async () => {
    const { studio } = await loadWith({ NEXT_PUBLIC_SANITY_PROJECT_ID: '' })
    expect(studio.projectId).toBe('local')
    expect(studio.apiHost).toBe('https://localhost:54380')
    expect(studio.auth).toEqual({ loginMethod: 'token', apiHost: 'https://localhost:54380' })
    expect(studio.search).toEqual({ strategy: 'groqLegacy' })
    const factory = studio.unstable_clientFactory as (options: Record<string, unknown>) => {
      config: () => Record<string, unknown>
    }
    const studioClient = factory({
      projectId: 'local',
      dataset: 'production',
      apiVersion: '2025-02-19',
      apiHost: 'https://localhost:54380',
      useCdn: false,
    })
    expect(studioClient.config().useProjectHostname).toBe(false)
    expect(studioClient.config().url).toBe('https://localhost:54380/v2025-02-19')
  })

  it('treats an invalid project id as none rather than failing', async () => {
    const { client } = await loadWith({ NEXT_PUBLIC_SANITY_PROJECT_ID: 'Not A Project!' })
    expect(client.projectId).toBe('local')
  })
})
