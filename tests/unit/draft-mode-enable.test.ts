import { createServer } from 'node:http'
import { NextRequest } from 'next/server'
import { describe, expect, it, vi } from 'vitest'
import { localServers } from './local-http-server'

// What the preview frame says when the preview's secret cannot be checked: the Content Lake refusing
// the site's read is its configuration (502, trying again will not help); anything else may pass (503,
// Retry-After). The route as the Presentation tool calls it, against local servers that answer as the
// hosted API does. Isolated (vitest.config.ts): the Content Lake's address is read when the site's
// modules load.

vi.mock('server-only', () => ({}))
const listen = localServers()

/** The route's answer with the Content Lake answering every request with `status`. */
async function previewWith(status: number) {
  const url = await listen(
    createServer((_, response) =>
      response
        .writeHead(status, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: 'Refused', message: 'Refused', statusCode: status })),
    ),
  )
  const { logged: _, ...answer } = await openPreview({
    SANITY_PROJECT_API_URL: url,
    SANITY_API_READ_TOKEN: 'skTestReadToken',
  })
  return answer
}

/** The route's answer, as the Presentation tool calls it, with these variables, and what it logged. */
async function openPreview(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  vi.resetModules()
  const { GET } = await import('@/app/api/draft-mode/enable/route')
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    const response = await GET(
      new NextRequest(
        'http://127.0.0.1:3000/api/draft-mode/enable?sanity-preview-secret=s3cret&sanity-preview-pathname=/',
      ),
    )
    return {
      status: response.status,
      text: await response.text(),
      retryAfter: response.headers.get('retry-after'),
      logged: errors.mock.calls.flat().join(' '),
    }
  } finally {
    errors.mockRestore()
    vi.unstubAllEnvs()
  }
}

describe('draft mode whose secret cannot be checked', () => {
  it.each([401, 403, 404])('the Content Lake answering %i: its configuration (502, no Retry-After)', async (status) => {
    expect(await previewWith(status)).toEqual({
      status: 502,
      text: "L'aperçu ne peut pas s'ouvrir : l'API de contenu refuse la lecture du site (sa configuration). Prévenez la personne qui administre le site.",
      retryAfter: null,
    })
  })

  it.each([429, 503])('the Content Lake answering %i: try again (503)', async (status) => {
    expect(await previewWith(status)).toEqual({
      status: 503,
      text: "L'aperçu ne peut pas s'ouvrir : l'API de contenu ne répond pas. Réessayez dans un instant.",
      retryAfter: '5',
    })
  })
})

describe('draft mode on a site without a token that reads drafts', () => {
  it('says so in French in the preview frame (501) and names the variable in the log', async () => {
    const { status, text, logged } = await openPreview({ SANITY_API_READ_TOKEN: '' })
    expect([status, text]).toEqual([
      501,
      "L'aperçu n'est pas activé sur ce site : il lui manque un jeton de lecture des brouillons (SANITY_API_READ_TOKEN). Prévenez la personne qui administre le site.",
    ])
    expect(logged).toContain('set SANITY_API_READ_TOKEN')
  })
})
