import { createClient } from '@sanity/client'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../free-port.ts'
import { startContentLake } from './start-content-lake.ts'
import type { SanityDocument } from './document-store.ts'

/*
 * The local Content Lake as a process: what it acknowledged survives kill -9, history included, the
 * seed is imported once, and random patches never leave a document corrupted, a revision its history
 * cannot rebuild, or the server failing.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'content-lake-'))
let child: ChildProcess | undefined

async function startProcess(port: number): Promise<ChildProcess> {
  const process_ = spawn(
    process.execPath,
    [
      'twins/content-lake/content-lake-server.ts',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--seed-dir',
      'studio/seed',
      '--no-webhook',
    ],
    { stdio: 'ignore' },
  )
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (process_.exitCode !== null) throw new Error(`server exited with ${process_.exitCode}`)
    const up = await fetch(`http://127.0.0.1:${port}/v1/ping`)
      .then((r) => r.ok)
      .catch(() => false)
    if (up) return process_
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not start')
}

async function kill9(process_: ChildProcess) {
  const exited = new Promise((resolve) => process_.once('exit', resolve))
  process_.kill('SIGKILL')
  await exited
}

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

describe('durability', () => {
  it('keeps every acknowledged mutation and its history across kill -9, imports the seed once, keeps the tokens and the webhook secret', async () => {
    const port = await freePort()
    child = await startProcess(port)
    const token = ((await (await fetch(`http://127.0.0.1:${port}/v1/auth/local-token`)).json()) as { token: string })
      .token
    const siteCredentials = async () => (await fetch(`http://127.0.0.1:${port}/v1/auth/local-site-credentials`)).json()
    const credentials = await siteCredentials()
    expect(credentials).toEqual({
      viewerToken: expect.stringMatching(/^sk.{40,}/),
      webhookSecret: expect.stringMatching(/^.{40,}$/),
    })
    const client = createClient({
      projectId: 'local',
      dataset: 'production',
      apiVersion: '2025-02-19',
      useCdn: false,
      apiHost: `http://127.0.0.1:${port}`,
      useProjectHostname: false,
      token,
    })
    const seeded = await client.fetch<number>('count(*)')
    expect(seeded).toBeGreaterThan(28) // documents and their image assets

    const seededHome = await client.getDocument('homePage')
    const patched = await client.patch('homePage').set({ 'hero.title.fr': 'Avant le crash' }).commit()
    // 50 writes as fast as they are acknowledged, then kill -9 right after the last acknowledgement.
    const acknowledged: string[] = []
    let lastRevision = ''
    for (let i = 0; i < 50; i++) {
      const doc = await client.create({ _id: `crash-${i}`, _type: 'note', i })
      acknowledged.push(doc._id)
      lastRevision = doc._rev
    }
    await kill9(child)

    child = await startProcess(port)
    expect(await client.fetch('*[_id == "homePage"][0].hero.title.fr')).toBe('Avant le crash')
    expect(await client.fetch('count(*[_type == "note" && _id in $ids])', { ids: acknowledged })).toBe(50)
    expect(await client.fetch<number>('count(*)')).toBe(seeded + 50) // the seed was not imported again
    // The history too: the last acknowledged transaction, and the revisions before the crash.
    const history = <T>(path: string, query: Record<string, string>) =>
      client.request<T>({ url: `/data/history/production/${path}`, query })
    const last = await history<string>('transactions/crash-49', { effectFormat: 'mendoza' })
    expect(JSON.parse(last).id).toBe(lastRevision)
    const atSeed = await history<{ documents: { hero: unknown }[] }>('documents/homePage', {
      revision: seededHome?._rev ?? '',
    })
    expect(atSeed.documents[0].hero).toEqual(seededHome?.hero)
    const atPatch = await history<{ documents: { _rev: string }[] }>('documents/homePage', { revision: patched._rev })
    expect(atPatch.documents[0]._rev).toBe(patched._rev)
    const again = ((await (await fetch(`http://127.0.0.1:${port}/v1/auth/local-token`)).json()) as { token: string })
      .token
    expect(again).toBe(token)
    expect(await siteCredentials()).toEqual(credentials)
    // Who answers on the port: this data folder's Content Lake, in the restarted process.
    expect(await (await fetch(`http://127.0.0.1:${port}/_twin`)).json()).toEqual({
      twin: 'content-lake',
      dataDir: realpathSync(dataDir),
      pid: child.pid,
    })
    await kill9(child)
  })
})

describe('secrets of a data folder', () => {
  it('are made for each data folder: no two folders, so no two copies of the site, share a webhook secret or a token', async () => {
    const other = mkdtempSync(join(tmpdir(), 'content-lake-'))
    const lakes = [
      await startContentLake({ port: 0, dataDir: other, webhookUrl: null, log: () => {} }),
      await startContentLake({ port: 0, webhookUrl: null, log: () => {} }),
    ]
    try {
      const [a, b] = lakes
      expect(new Set([a.webhookSecret, b.webhookSecret, a.viewerToken, b.viewerToken, a.token, b.token]).size).toBe(6)
    } finally {
      for (const lake of lakes) await lake.close()
      rmSync(other, { recursive: true, force: true })
    }
  })
})

describe('random patches', () => {
  const key = fc.constantFrom(
    'title',
    'count',
    'tags',
    'nested',
    'nested.inner',
    'tags[0]',
    'tags[-1]',
    '_id',
    '_type',
    'missing.deep.path',
  )
  const value = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer({ min: -5, max: 5 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  )
  const operation = fc.oneof(
    fc.record({ set: fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }) }),
    fc.record({ setIfMissing: fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }) }),
    fc.record({ unset: fc.array(key, { minLength: 1, maxLength: 2 }) }),
    fc.record({
      inc: fc.dictionary(key, fc.oneof(fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 2 })), {
        minKeys: 1,
        maxKeys: 1,
      }),
    }),
    fc.record({ dec: fc.dictionary(key, fc.integer({ min: -3, max: 3 }), { minKeys: 1, maxKeys: 1 }) }),
    fc.constantFrom('before', 'after', 'replace').chain((position) =>
      fc.record({
        insert: fc.record({
          [position]: fc.constantFrom('tags[0]', 'tags[-1]', 'title', 'nested[0]'),
          items: fc.array(value, { maxLength: 2 }),
        }),
      }),
    ),
    fc.record({ diffMatchPatch: fc.dictionary(key, fc.string({ maxLength: 12 }), { minKeys: 1, maxKeys: 1 }) }),
    fc.record({ bogus: value }),
  )

  it('never corrupt a document: each patch applies whole or not at all, its history rebuilds every revision, and the server never fails', async () => {
    const lake = await startContentLake({ port: 0, webhookUrl: null, log: () => {} })
    const headers = { Authorization: `Bearer ${lake.token}`, 'Content-Type': 'application/json' }
    const mutateUrl = `${lake.url}/v2025-02-19/data/mutate/production?returnDocuments=true`
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 6 }), async (operations) => {
          await fetch(mutateUrl, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              mutations: [
                {
                  createOrReplace: {
                    _id: 'fuzz',
                    _type: 'note',
                    title: 'x',
                    count: 1,
                    tags: ['a'],
                    nested: { inner: 1 },
                  },
                },
              ],
            }),
          })
          const revisions: SanityDocument[] = []
          for (const op of operations) {
            const before = lake.store.get('fuzz')
            const response = await fetch(mutateUrl, {
              method: 'POST',
              headers,
              body: JSON.stringify({ mutations: [{ patch: { id: 'fuzz', ...op } }] }),
            })
            expect(response.status).toBeLessThan(500)
            const after = lake.store.get('fuzz')
            expect(after?._id).toBe('fuzz')
            expect(typeof after?._type).toBe('string')
            if (response.status >= 400) expect(after).toEqual(before)
            else expect(after?._rev).not.toBe(before?._rev)
            expect(() => JSON.parse(JSON.stringify(after))).not.toThrow()
            if (after && response.status < 400) revisions.push(after)
          }
          const { history } = lake.store
          for (const revision of revisions) {
            const position = history.positionOf(revision._rev as string) as number
            expect(history.documentAt('fuzz', lake.store.get('fuzz'), position)).toEqual(revision)
          }
        }),
        { numRuns: 150 },
      )
    } finally {
      await lake.close()
    }
  })
})
