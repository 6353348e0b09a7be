import { isValidSignature } from '@sanity/webhook'
import { createClient, type SanityClient } from '@sanity/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { ContentLake } from './start-content-lake.ts'
import { startTestLake, type TestLake, type Webhook } from './test-lake.ts'

/*
 * The local Content Lake's edges through the real @sanity/client: assets, authentication and bad
 * input, the presence socket, the revalidation webhook. Its documents: content-lake.test.ts.
 */

let test: TestLake
let lake: ContentLake
let editor: SanityClient
let anonymous: SanityClient
let webhooks: Webhook[]
let raw: TestLake['raw']
let statusWithHost: TestLake['statusWithHost']
let auth: TestLake['auth']
beforeAll(async () => {
  test = await startTestLake()
  ;({ lake, editor, anonymous, webhooks, raw, statusWithHost, auth } = test)
})
afterAll(() => test?.close())

describe('assets', () => {
  // A 3×2 GIF: the size must come from the bytes.
  const gif = Buffer.from('R0lGODlhAwACAIAAAP///wAAACH5BAAAAAAALAAAAAADAAIAAAICjF8AOw==', 'base64')

  it('stores an image under its hash and size, serves it, and dedupes re-uploads', async () => {
    const asset = await editor.assets.upload('image', gif, { filename: 'dot.gif' })
    expect(asset._id).toMatch(/^image-[0-9a-f]{40}-3x2-gif$/)
    expect(asset.metadata.dimensions).toMatchObject({ width: 3, height: 2, aspectRatio: 1.5 })
    expect(asset.url).toBe(`${lake.url}/images/local/production/${asset.assetId}-3x2.gif`)
    const served = await fetch(`${asset.url}?w=100&fit=max`)
    expect(served.headers.get('content-type')).toBe('image/gif')
    expect(Buffer.from(await served.arrayBuffer()).equals(gif)).toBe(true)
    expect((await editor.assets.upload('image', gif))._id).toBe(asset._id)
  })

  it('refuses bytes that are not an image (400) and uploads files as they are', async () => {
    await expect(editor.assets.upload('image', Buffer.from('not an image'))).rejects.toMatchObject({ statusCode: 400 })
    const file = await editor.assets.upload('file', Buffer.from('%PDF-1.4 minimal'), {
      filename: 'brief.pdf',
      contentType: 'application/pdf',
    })
    expect(file._id).toMatch(/^file-[0-9a-f]{40}-pdf$/)
    expect(file.mimeType).toBe('application/pdf')
  })
})

describe('authentication and bad input', () => {
  it('needs the editor token to write or to read the current user (401), and refuses a wrong one', async () => {
    await expect(anonymous.create({ _type: 'note' })).rejects.toMatchObject({ statusCode: 401 })
    expect((await raw('/v2026-05-04/users/me')).status).toBe(401)
    expect((await raw('/v2026-05-04/users/me', { headers: auth() })).status).toBe(200)
    expect(
      (await raw('/v2025-02-19/data/query/production?query=1', { headers: { Authorization: 'Bearer wrong' } })).status,
    ).toBe(401)
  })

  it('answers malformed JSON, an unknown dataset, a huge body, an unknown endpoint and a foreign host with 4xx', async () => {
    const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      raw(path, { method: 'POST', body, headers: { ...auth(), 'Content-Type': 'application/json', ...headers } })
    const malformed = await post('/v2025-02-19/data/mutate/production', '{"mutations": [')
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.description).toMatch(/JSON/)
    expect((await raw('/v2025-02-19/data/query/staging?query=1')).status).toBe(404)
    expect(
      (
        await post(
          '/v2025-02-19/data/mutate/production',
          `{"mutations":[{"create":{"_type":"x","big":"${'x'.repeat(5 * 1024 * 1024)}"}}]}`,
        )
      ).status,
    ).toBe(413)
    expect((await raw('/v2025-02-19/nothing/here')).status).toBe(404)
    expect(await statusWithHost('evil.example:1234')).toBe(403) // DNS rebinding
    expect(await statusWithHost(`localhost:${lake.port}`)).toBe(200)
    expect(
      (await post('/v2025-02-19/data/mutate/production', '{"mutations":[{"create":{"_id":"bad id!","_type":"x"}}]}'))
        .status,
    ).toBe(400)
    expect((await post('/v2025-02-19/data/mutate/production', '{"mutations":[{"explode":{}}]}')).status).toBe(400)
    expect((await raw('/v1/ping')).status).toBe(200) // still serving
  })

  it("gives the site's server a read-only token and the webhook secret: loopback only, never to a browser", async () => {
    const response = await raw('/v1/auth/local-site-credentials')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { viewerToken, webhookSecret } = (await response.json()) as { viewerToken: string; webhookSecret: string }
    expect(viewerToken).toBe(lake.viewerToken)
    expect(webhookSecret).toBe(lake.webhookSecret)
    expect(viewerToken).not.toBe(lake.token)
    // Not from a page, even the site's own: its browser code has no use for either.
    const fromPage = await raw('/v1/auth/local-site-credentials', { headers: { Origin: 'http://localhost:3000' } })
    expect(fromPage.status).toBe(403)
    expect(JSON.stringify(await fromPage.json())).not.toContain(viewerToken)
  })

  it('lets the viewer token read drafts and refuses it every write', async () => {
    await editor.createOrReplace({ _id: 'drafts.it-viewer', _type: 'note', title: 'draft' })
    const viewer = createClient({
      projectId: lake.projectId,
      dataset: lake.dataset,
      apiVersion: '2025-02-19',
      useCdn: false,
      apiHost: lake.url,
      useProjectHostname: false,
      token: lake.viewerToken,
    })
    expect(await viewer.fetch('*[_id == "drafts.it-viewer"][0].title', {}, { perspective: 'raw' })).toBe('draft')
    await expect(viewer.create({ _type: 'note' })).rejects.toMatchObject({ statusCode: 403 })
    await expect(viewer.patch('drafts.it-viewer').set({ title: 'changed' }).commit()).rejects.toMatchObject({
      statusCode: 403,
    })
    const bearer = { Authorization: `Bearer ${lake.viewerToken}`, 'Content-Type': 'application/json' }
    const action = {
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.it-viewer',
      publishedId: 'it-viewer',
    }
    expect(
      (
        await raw('/v2025-02-19/data/actions/production', {
          method: 'POST',
          headers: bearer,
          body: JSON.stringify({ actions: [action] }),
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await raw('/v2025-02-19/assets/files/production?filename=a.txt', {
          method: 'POST',
          headers: bearer,
          body: 'hello',
        })
      ).status,
    ).toBe(403)
    expect(
      (await raw('/v2025-02-19/users/me/keyvalue', { method: 'PUT', headers: bearer, body: '[{"key":"k","value":1}]' }))
        .status,
    ).toBe(403)
    expect(await editor.fetch('*[_id in ["drafts.it-viewer", "it-viewer"]].title', {}, { perspective: 'raw' })).toEqual(
      ['draft'],
    )
  })

  it('allows the site origin by CORS, and no other', async () => {
    const preflight = (origin: string) =>
      raw('/v2025-02-19/data/query/production', {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization,x-sanity-app',
        },
      })
    const allowed = await preflight('http://localhost:3000')
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true')
    expect((await preflight('https://evil.example')).status).toBe(403)
  })
})

describe('presence socket', () => {
  const open = (origin: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${lake.port}/v2022-06-30/socket/production?tag=sanity.studio`, {
        headers: { Origin: origin },
      })
      socket.once('open', () => resolve(socket))
      socket.once('error', reject)
    })

  it("answers the Studio's JSON-RPC calls from the site, and refuses other origins", async () => {
    const socket = await open('http://localhost:3000')
    const reply = new Promise<Record<string, unknown>>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)))),
    )
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', method: 'presence_subscribe', params: { apiVersion: 'v1' }, id: 'r1' }),
    )
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 'r1', result: 'presence-r1' })
    socket.close()
    await expect(open('https://evil.example')).rejects.toThrow()
  })
})

describe('revalidation webhook', () => {
  it('signs one request per published change, with the document type, and ignores drafts', async () => {
    await lake.webhooksIdle()
    webhooks.length = 0
    await editor.createOrReplace({ _id: 'drafts.it-hook', _type: 'hookType' })
    await editor.createOrReplace({ _id: 'it-hook', _type: 'hookType' })
    await editor.delete('it-hook')
    await lake.webhooksIdle()
    expect(
      webhooks.map((hook) => [
        JSON.parse(hook.body)._type,
        hook.headers['sanity-operation'],
        hook.headers['sanity-document-id'],
      ]),
    ).toEqual([
      ['hookType', 'create', 'it-hook'],
      ['hookType', 'delete', 'it-hook'],
    ])
    for (const hook of webhooks)
      expect(await isValidSignature(hook.body, hook.signature, lake.webhookSecret)).toBe(true)
    expect(await isValidSignature(webhooks[0].body, webhooks[0].signature, 'another secret')).toBe(false)
  })
})
