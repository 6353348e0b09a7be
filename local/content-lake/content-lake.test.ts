import { createClient, type MutationEvent, type SanityClient, type WelcomeEvent } from '@sanity/client'
import { isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { createServer, request, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startContentLake, type ContentLake } from './create-content-lake.ts'

/*
 * The local Content Lake through the real @sanity/client (the one the Studio and the site use):
 * mutations and patches, transactions, revisions, actions, the listener, perspectives, assets,
 * authentication and bad input.
 */

let lake: ContentLake
let editor: SanityClient
let anonymous: SanityClient
const webhooks: { body: string; signature: string; headers: IncomingMessage['headers'] }[] = []
const receiver = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk) => (body += chunk))
  request.on('end', () => {
    webhooks.push({ body, signature: String(request.headers[SIGNATURE_HEADER_NAME]), headers: request.headers })
    response.end('{}')
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as { port: number }
  lake = await startContentLake({ port: 0, seedDir: join(process.cwd(), 'studio', 'seed'), webhookUrl: `http://127.0.0.1:${port}/api/revalidate`, log: () => {} })
  const config = { projectId: lake.projectId, dataset: lake.dataset, apiVersion: '2025-02-19', useCdn: false, apiHost: lake.url, useProjectHostname: false }
  editor = createClient({ ...config, token: lake.token })
  anonymous = createClient(config)
})
afterAll(async () => {
  await lake?.close()
  receiver.close()
})

const raw = (path: string, init: RequestInit = {}) => fetch(`${lake.url}${path}`, init)
/** fetch() cannot set Host: a plain request can. */
const statusWithHost = (host: string) =>
  new Promise<number>((resolve, reject) => {
    request({ host: '127.0.0.1', port: lake.port, path: '/v1/ping', headers: { Host: host } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
      .on('error', reject)
      .end()
  })
const auth = () => ({ Authorization: `Bearer ${lake.token}` })

describe('mutations', () => {
  it('creates, reads back, and refuses a second create of the same id (409)', async () => {
    const result = await editor.create({ _id: 'it-create', _type: 'note', title: 'one' })
    expect(result).toMatchObject({ _id: 'it-create', _type: 'note', title: 'one' })
    expect(result._rev).toMatch(/^[A-Za-z0-9]{22}$/)
    expect(result._createdAt).toBe(result._updatedAt)
    await expect(editor.create({ _id: 'it-create', _type: 'note' })).rejects.toMatchObject({ statusCode: 409 })
  })

  it('createIfNotExists keeps an existing document; createOrReplace replaces it but keeps _createdAt', async () => {
    const first = await editor.getDocument('it-create')
    await editor.createIfNotExists({ _id: 'it-create', _type: 'note', title: 'ignored' })
    expect((await editor.getDocument('it-create'))?.title).toBe('one')
    const replaced = await editor.createOrReplace({ _id: 'it-create', _type: 'note', body: 'two' })
    expect(replaced).not.toHaveProperty('title')
    expect(replaced.body).toBe('two')
    expect(replaced._createdAt).toBe(first?._createdAt)
    expect(replaced._rev).not.toBe(first?._rev)
  })

  it('generates ids for a create without one, and under a "drafts." prefix', async () => {
    const plain = await editor.create({ _type: 'note' })
    expect(plain._id).toMatch(/^[0-9a-f-]{36}$/)
    const draft = await editor.create({ _id: 'drafts.', _type: 'note' })
    expect(draft._id).toMatch(/^drafts\.[0-9a-f-]{36}$/)
  })

  it('applies every patch operation the Studio sends', async () => {
    await editor.createOrReplace({ _id: 'it-patch', _type: 'note', count: 1, tags: ['b'], text: 'Hello world', nested: { a: 1 } })
    const patched = await editor
      .patch('it-patch')
      .set({ 'nested.b': 2 })
      .setIfMissing({ title: 'first', count: 99 })
      .unset(['nested.a'])
      .inc({ count: 5 })
      .dec({ count: 2 })
      .insert('before', 'tags[0]', ['a'])
      .diffMatchPatch({ text: '@@ -1,11 +1,11 @@\n Hello \n-world\n+there\n' })
      .commit()
    expect(patched).toMatchObject({ title: 'first', count: 4, tags: ['a', 'b'], text: 'Hello there', nested: { b: 2 } })
    expect(patched.nested).not.toHaveProperty('a')
    // One insert per patch: the client keeps only the last insert of a patch builder.
    expect((await editor.patch('it-patch').insert('after', 'tags[-1]', ['c']).commit()).tags).toEqual(['a', 'b', 'c'])
    const replaced = await editor.patch('it-patch').insert('replace', 'tags[1]', ['B']).commit()
    expect(replaced.tags).toEqual(['a', 'B', 'c'])
  })

  it('patches and deletes by query', async () => {
    await editor.transaction().createOrReplace({ _id: 'it-q1', _type: 'bulk', n: 1 }).createOrReplace({ _id: 'it-q2', _type: 'bulk', n: 2 }).commit()
    await editor.mutate([{ patch: { query: '*[_type == $type]', params: { type: 'bulk' }, set: { flagged: true } } }])
    expect(await editor.fetch('*[_type == "bulk"] | order(n asc).flagged')).toEqual([true, true])
    await editor.delete({ query: '*[_type == "bulk"]' })
    expect(await editor.fetch('count(*[_type == "bulk"])')).toBe(0)
  })

  it('is all or nothing: a failing mutation undoes the transaction', async () => {
    const transaction = editor.transaction().create({ _id: 'it-atomic', _type: 'note' }).patch('it-missing', (p) => p.set({ x: 1 }))
    await expect(transaction.commit()).rejects.toMatchObject({ statusCode: 404 })
    expect(await editor.getDocument('it-atomic')).toBeUndefined()
  })

  it('returns ids and documents when asked, and honours ifRevisionID', async () => {
    const result = await editor.mutate([{ createOrReplace: { _id: 'it-rev', _type: 'note', v: 1 } }], { returnDocuments: true })
    const rev = (result as unknown as { _rev: string }[])[0]._rev
    expect(rev).toMatch(/^[A-Za-z0-9]{22}$/)
    const ids = await editor.mutate([{ patch: { id: 'it-rev', ifRevisionID: rev, set: { v: 2 } } }], { returnDocuments: false })
    expect(ids.results).toEqual([{ id: 'it-rev', operation: 'update' }])
    await expect(editor.patch('it-rev').ifRevisionId(rev).set({ v: 3 }).commit()).rejects.toMatchObject({ statusCode: 409 })
    expect((await editor.getDocument('it-rev'))?.v).toBe(2)
  })

  it('refuses to change _id or drop _type', async () => {
    await editor.createOrReplace({ _id: 'it-guard', _type: 'note' })
    await expect(editor.patch('it-guard').set({ _id: 'other' }).commit()).rejects.toMatchObject({ statusCode: 400 })
    await expect(editor.patch('it-guard').unset(['_type']).commit()).rejects.toMatchObject({ statusCode: 400 })
  })
})

describe('document actions', () => {
  const action = (actions: unknown[]) => editor.request({ method: 'POST', uri: `/data/actions/${lake.dataset}`, body: { actions } })

  it('edits a published document through a new draft, publishes, unpublishes, discards and deletes', async () => {
    await editor.createOrReplace({ _id: 'it-act', _type: 'note', title: 'published' })
    await action([{ actionType: 'sanity.action.document.edit', draftId: 'drafts.it-act', publishedId: 'it-act', patch: { set: { title: 'draft' } } }])
    expect((await editor.getDocument('drafts.it-act'))?.title).toBe('draft')
    expect((await editor.getDocument('it-act'))?.title).toBe('published')
    const published = await editor.getDocument('it-act')
    await expect(action([{ actionType: 'sanity.action.document.publish', draftId: 'drafts.it-act', publishedId: 'it-act', ifPublishedRevisionId: 'stale' }])).rejects.toMatchObject({ statusCode: 409 })
    await action([{ actionType: 'sanity.action.document.publish', draftId: 'drafts.it-act', publishedId: 'it-act', ifPublishedRevisionId: published?._rev }])
    expect((await editor.getDocument('it-act'))?.title).toBe('draft')
    expect(await editor.getDocument('drafts.it-act')).toBeUndefined()
    await action([{ actionType: 'sanity.action.document.unpublish', draftId: 'drafts.it-act', publishedId: 'it-act' }])
    expect(await editor.getDocument('it-act')).toBeUndefined()
    expect((await editor.getDocument('drafts.it-act'))?.title).toBe('draft')
    await action([{ actionType: 'sanity.action.document.version.discard', versionId: 'drafts.it-act' }])
    expect(await editor.getDocument('drafts.it-act')).toBeUndefined()
    await editor.createOrReplace({ _id: 'it-act', _type: 'note' })
    await editor.createOrReplace({ _id: 'drafts.it-act', _type: 'note' })
    await action([{ actionType: 'sanity.action.document.delete', publishedId: 'it-act', includeDrafts: ['drafts.it-act'] }])
    expect(await editor.fetch('count(*[_id in ["it-act", "drafts.it-act"]])', {}, { perspective: 'raw' })).toBe(0)
  })

  it('creates a new draft and refuses unknown actions with a 400', async () => {
    await action([{ actionType: 'sanity.action.document.create', publishedId: 'it-new', attributes: { _id: 'drafts.it-new', _type: 'note' }, ifExists: 'fail' }])
    expect(await editor.getDocument('drafts.it-new')).toMatchObject({ _type: 'note' })
    await expect(action([{ actionType: 'sanity.action.release.archive' }])).rejects.toMatchObject({ statusCode: 400 })
  })
})

describe('queries and perspectives', () => {
  beforeAll(async () => {
    await editor.createOrReplace({ _id: 'it-persp', _type: 'persp', title: 'published' })
    await editor.createOrReplace({ _id: 'drafts.it-persp', _type: 'persp', title: 'draft' })
    await editor.createOrReplace({ _id: 'drafts.it-only-draft', _type: 'persp', title: 'new' })
  })

  it('published hides drafts, drafts overlays them, raw shows everything', async () => {
    const q = '*[_type == "persp"] | order(_id asc){_id, _originalId, title}'
    expect(await editor.fetch(q, {}, { perspective: 'published' })).toEqual([{ _id: 'it-persp', _originalId: null, title: 'published' }])
    expect(await editor.fetch(q, {}, { perspective: 'drafts' })).toEqual([
      { _id: 'it-only-draft', _originalId: 'drafts.it-only-draft', title: 'new' },
      { _id: 'it-persp', _originalId: 'drafts.it-persp', title: 'draft' },
    ])
    expect((await editor.fetch(q, {}, { perspective: 'raw' })).map((doc: { _id: string }) => doc._id)).toEqual(['drafts.it-only-draft', 'drafts.it-persp', 'it-persp'])
  })

  it('never shows drafts to an anonymous reader, whatever the perspective', async () => {
    expect(await anonymous.fetch('*[_type == "persp"]._id', {}, { perspective: 'raw' })).toEqual(['it-persp'])
    expect(await anonymous.fetch('*[_id == "drafts.it-persp"][0]', {}, { perspective: 'raw' })).toBeNull()
  })

  it('answers GROQ errors with 400 queryParseError, and search queries with text::query', async () => {
    await expect(editor.fetch('*[_type == ')).rejects.toMatchObject({ statusCode: 400 })
    const response = await raw(`/v2025-02-19/data/query/production?query=${encodeURIComponent('*[')}`)
    expect(response.status).toBe(400)
    expect((await response.json()).error.type).toBe('queryParseError')
    expect(await editor.fetch('count(*[_type == "persp" && [@, _id] match text::query($q)])', { q: '*' }, { perspective: 'raw' })).toBe(3)
  })

  it('uses POST for long queries', async () => {
    const long = `*[_type == "persp" && !(_id in ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `x-${i}-${'y'.repeat(10)}`))})]._id`
    expect(long.length).toBeGreaterThan(11264)
    expect(await editor.fetch(long, {}, { perspective: 'published' })).toEqual(['it-persp'])
  })
})

describe('listener', () => {
  it('sends welcome, then mutation events chained by revision with mendoza effects', async () => {
    const events: (MutationEvent | WelcomeEvent)[] = []
    const subscription = editor
      .listen('*[_id in $ids]', { ids: ['it-listen', 'drafts.it-listen'] }, { events: ['welcome', 'mutation'], effectFormat: 'mendoza', includeResult: true, includePreviousRevision: true })
      .subscribe((event) => events.push(event as MutationEvent | WelcomeEvent))
    await expect.poll(() => events.length, { timeout: 5000 }).toBe(1)
    expect(events[0].type).toBe('welcome')
    const created = await editor.create({ _id: 'it-listen', _type: 'note', n: 1 })
    const patched = await editor.patch('it-listen').set({ n: 2 }).commit()
    await editor.delete('it-listen')
    await editor.create({ _id: 'unrelated', _type: 'note' })
    await expect.poll(() => events.length, { timeout: 5000 }).toBe(4)
    subscription.unsubscribe()
    const [, appear, update, disappear] = events as MutationEvent[]
    expect(appear).toMatchObject({ type: 'mutation', documentId: 'it-listen', transition: 'appear', resultRev: created._rev, result: { n: 1 } })
    expect(appear.previousRev).toBeUndefined()
    expect(update).toMatchObject({ transition: 'update', previousRev: created._rev, resultRev: patched._rev, previous: { n: 1 }, result: { n: 2 } })
    expect(update.effects).toEqual({ apply: [0, patched], revert: [0, { ...created }] })
    expect(update.mutations).toEqual([{ createOrReplace: patched }])
    expect(disappear).toMatchObject({ transition: 'disappear', previousRev: patched._rev, mutations: [{ delete: { id: 'it-listen' } }] })
  })

  it('refuses a listener with a broken filter (400)', async () => {
    const response = await raw(`/v2025-02-19/data/listen/production?query=${encodeURIComponent('*[')}`, { headers: auth() })
    expect(response.status).toBe(400)
  })
})

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
    const file = await editor.assets.upload('file', Buffer.from('%PDF-1.4 minimal'), { filename: 'brief.pdf', contentType: 'application/pdf' })
    expect(file._id).toMatch(/^file-[0-9a-f]{40}-pdf$/)
    expect(file.mimeType).toBe('application/pdf')
  })
})

describe('authentication and bad input', () => {
  it('needs the editor token to write or to read the current user (401), and refuses a wrong one', async () => {
    await expect(anonymous.create({ _type: 'note' })).rejects.toMatchObject({ statusCode: 401 })
    expect((await raw('/v2026-05-04/users/me')).status).toBe(401)
    expect((await raw('/v2026-05-04/users/me', { headers: auth() })).status).toBe(200)
    expect((await raw('/v2025-02-19/data/query/production?query=1', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401)
  })

  it('answers malformed JSON, an unknown dataset, a huge body, an unknown endpoint and a foreign host with 4xx', async () => {
    const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) => raw(path, { method: 'POST', body, headers: { ...auth(), 'Content-Type': 'application/json', ...headers } })
    const malformed = await post('/v2025-02-19/data/mutate/production', '{"mutations": [')
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.description).toMatch(/JSON/)
    expect((await raw('/v2025-02-19/data/query/staging?query=1')).status).toBe(404)
    expect((await post('/v2025-02-19/data/mutate/production', `{"mutations":[{"create":{"_type":"x","big":"${'x'.repeat(5 * 1024 * 1024)}"}}]}`)).status).toBe(413)
    expect((await raw('/v2025-02-19/nothing/here')).status).toBe(404)
    expect(await statusWithHost('evil.example:1234')).toBe(403) // DNS rebinding
    expect(await statusWithHost(`localhost:${lake.port}`)).toBe(200)
    expect((await post('/v2025-02-19/data/mutate/production', '{"mutations":[{"create":{"_id":"bad id!","_type":"x"}}]}')).status).toBe(400)
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
    const viewer = createClient({ projectId: lake.projectId, dataset: lake.dataset, apiVersion: '2025-02-19', useCdn: false, apiHost: lake.url, useProjectHostname: false, token: lake.viewerToken })
    expect(await viewer.fetch('*[_id == "drafts.it-viewer"][0].title', {}, { perspective: 'raw' })).toBe('draft')
    await expect(viewer.create({ _type: 'note' })).rejects.toMatchObject({ statusCode: 403 })
    await expect(viewer.patch('drafts.it-viewer').set({ title: 'changed' }).commit()).rejects.toMatchObject({ statusCode: 403 })
    const bearer = { Authorization: `Bearer ${lake.viewerToken}`, 'Content-Type': 'application/json' }
    const action = { actionType: 'sanity.action.document.publish', draftId: 'drafts.it-viewer', publishedId: 'it-viewer' }
    expect((await raw('/v2025-02-19/data/actions/production', { method: 'POST', headers: bearer, body: JSON.stringify({ actions: [action] }) })).status).toBe(403)
    expect((await raw('/v2025-02-19/assets/files/production?filename=a.txt', { method: 'POST', headers: bearer, body: 'hello' })).status).toBe(403)
    expect((await raw('/v2025-02-19/users/me/keyvalue', { method: 'PUT', headers: bearer, body: '[{"key":"k","value":1}]' })).status).toBe(403)
    expect(await editor.fetch('*[_id in ["drafts.it-viewer", "it-viewer"]].title', {}, { perspective: 'raw' })).toEqual(['draft'])
  })

  it('allows the site origin by CORS, and no other', async () => {
    const preflight = (origin: string) => raw('/v2025-02-19/data/query/production', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,x-sanity-app' } })
    const allowed = await preflight('http://localhost:3000')
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true')
    expect((await preflight('https://evil.example')).status).toBe(403)
  })
})

describe('presence socket', () => {
  const open = (origin: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${lake.port}/v2022-06-30/socket/production?tag=sanity.studio`, { headers: { Origin: origin } })
      socket.once('open', () => resolve(socket))
      socket.once('error', reject)
    })

  it("answers the Studio's JSON-RPC calls from the site, and refuses other origins", async () => {
    const socket = await open('http://localhost:3000')
    const reply = new Promise<Record<string, unknown>>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))))
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'presence_subscribe', params: { apiVersion: 'v1' }, id: 'r1' }))
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
    expect(webhooks.map((hook) => [JSON.parse(hook.body)._type, hook.headers['sanity-operation'], hook.headers['sanity-document-id']])).toEqual([
      ['hookType', 'create', 'it-hook'],
      ['hookType', 'delete', 'it-hook'],
    ])
    for (const hook of webhooks) expect(await isValidSignature(hook.body, hook.signature, lake.webhookSecret)).toBe(true)
    expect(await isValidSignature(webhooks[0].body, webhooks[0].signature, 'another secret')).toBe(false)
  })
})
