import { createClient } from '@sanity/client'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyPatch } from 'mendoza'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../free-port.ts'
import { startContentLake, type ContentLake } from './start-content-lake.ts'
import { withoutRev } from './mendoza-effects.ts'
import { startTestLake, type TestLake } from './test-lake.ts'

/*
 * The History API as the Studio calls it (routes/data-history.ts), through @sanity/client: revisions
 * by id, time and last revision, the transactions with their mendoza effects, the History panel's
 * events, and a history that outlives a restart.
 */

type Doc = { _id: string; _rev?: string; title?: { fr?: string } } & Record<string, unknown>
type Line = {
  id: string
  timestamp: string
  author: string
  documentIDs: string[]
  mutations?: unknown[]
  effects?: Record<string, { apply: unknown[]; revert: unknown[] }>
}

let t: TestLake
beforeAll(async () => {
  t = await startTestLake()
})
afterAll(() => t.close())

const documentsAt = async (ids: string, query: Record<string, string>) =>
  (await t.editor.request<{ documents: Doc[] }>({ url: `/data/history/production/documents/${ids}`, query })).documents
const transactions = async (ids: string, query: Record<string, string> = {}) =>
  (await t.editor.request<string>({ url: `/data/history/production/transactions/${ids}`, query }))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)
const events = async (id: string, query: Record<string, string> = {}) =>
  t.editor.request<{ events: Record<string, { type: string; timestamp: string }[]>; nextCursor: string }>({
    url: `/data/history/production/events/documents/${id}`,
    query,
  })
/** Waits for the clock to move, so that two transactions never share a millisecond. */
const nextMillisecond = async () => {
  const now = Date.now()
  while (Date.now() === now) await new Promise((resolve) => setTimeout(resolve, 1))
}
const action = (actions: Record<string, unknown>[]) => t.editor.action(actions as never)

describe('three edits of a published document', () => {
  const titles = ['Rédaction web — un', 'Rédaction web — deux', 'Rédaction web — trois']
  const revisions: string[] = []
  beforeAll(async () => {
    for (const title of titles) {
      await nextMillisecond()
      const { transactionId } = await t.editor.patch('service-web').set({ 'title.fr': title }).commit({
        returnDocuments: false,
      })
      revisions.push(transactionId)
    }
  })

  it('reads each revision back by its id, and by the time it was made', async () => {
    for (const [index, revision] of revisions.entries()) {
      const [doc] = await documentsAt('service-web', { revision })
      expect(doc).toMatchObject({ _id: 'service-web', _rev: revision, title: { fr: titles[index] } })
    }
    const lines = await transactions('service-web', { fromTransaction: revisions[0] })
    const [second] = await documentsAt('service-web', { time: lines[1].timestamp })
    expect(second).toMatchObject({ _rev: revisions[1], title: { fr: titles[1] } })
    // Before the first edit: the seed's revision; a revision never made: nothing.
    const [seeded] = await documentsAt('service-web', {
      time: new Date(Date.parse(lines[0].timestamp) - 1).toISOString(),
    })
    expect(seeded.title?.fr).toBe('Rédaction web et SEO')
    expect(await documentsAt('service-web', { revision: 'no-such-revision' })).toEqual([])
    await expect(documentsAt('service-web', { revision: revisions[0], lastRevision: 'true' })).rejects.toThrow(
      /Only one of/,
    )
  })

  it('lists them as transactions whose mendoza effects apply forward and revert back', async () => {
    const lines = await transactions('service-web', { fromTransaction: revisions[0], effectFormat: 'mendoza' })
    expect(lines.map((line) => line.id)).toEqual(revisions)
    expect(lines[0]).toMatchObject({ author: 'local-editor', documentIDs: ['service-web'] })
    const states = await Promise.all(
      revisions.map(async (revision) => withoutRev((await documentsAt('service-web', { revision }))[0])),
    )
    const current = withoutRev((await t.editor.getDocument('service-web')) ?? null)
    expect(applyPatch(current, lines[2].effects?.['service-web'].revert ?? [])).toEqual(states[1])
    expect(applyPatch(states[0], lines[1].effects?.['service-web'].apply ?? [])).toEqual(states[1])
    expect(applyPatch(states[1], lines[2].effects?.['service-web'].apply ?? [])).toEqual(current)
    // Edits, not whole documents: the patch keeps the title's other characters (a string slice, opcode 23).
    expect(lines[2].effects?.['service-web'].apply).toContain(23)
  })

  it('honours excludeContent, excludeMutations, reverse, limit, author and the bounds', async () => {
    const [withContent] = await transactions('service-web', { fromTransaction: revisions[0], limit: '1' })
    expect(withContent.mutations).toEqual([{ patch: { id: 'service-web', set: { 'title.fr': titles[0] } } }])
    expect(withContent.effects).toBeUndefined()
    const [stripped] = await transactions('service-web', { fromTransaction: revisions[0], excludeContent: 'true' })
    expect(stripped.mutations).toEqual([{ patch: { id: 'service-web' } }])
    const [bare] = await transactions('service-web', { fromTransaction: revisions[0], excludeMutations: 'true' })
    expect(bare).not.toHaveProperty('mutations')
    const newest = await transactions('service-web', { reverse: 'true', limit: '2' })
    expect(newest.map((line) => line.id)).toEqual([revisions[2], revisions[1]])
    // Up to a transaction, newest first: how the Studio's timeline pages back (the bound is included).
    const older = await transactions('service-web', { reverse: 'true', toTransaction: revisions[1] })
    expect(older.map((line) => line.id).slice(0, 2)).toEqual([revisions[1], revisions[0]])
    expect((await transactions('service-web', { author: 'local-editor' })).map((line) => line.id)).toEqual(revisions)
    expect((await transactions('service-web', { authors: 'system' })).map((line) => line.author)).toEqual(['system'])
    const fromTime = (await transactions('service-web', { fromTransaction: revisions[1] }))[0].timestamp
    expect((await transactions('service-web', { fromTime })).map((line) => line.id)).toEqual(revisions.slice(1))
  })

  it('lists them as events of the published document, newest first', async () => {
    const { events: listed, nextCursor } = await events('service-web')
    expect(nextCursor).toBe('')
    expect(listed['service-web'].map((event) => event.type)).toEqual([
      'updateLiveDocument',
      'updateLiveDocument',
      'updateLiveDocument',
      'createLiveDocument', // the seed's import
    ])
    expect(listed['service-web'][0]).toMatchObject({ revisionId: revisions[2], author: 'local-editor' })
    const firstPage = await events('service-web', { limit: '2' })
    expect(firstPage.events['service-web']).toHaveLength(2)
    const secondPage = await events('service-web', { limit: '2', nextCursor: firstPage.nextCursor })
    expect(secondPage.events['service-web'].map((event) => event.type)).toEqual([
      'updateLiveDocument',
      'createLiveDocument',
    ])
  })
})

describe('the Studio’s editing loop', () => {
  it('gives the draft its creation and publication as events, and its edits as transactions', async () => {
    const edit = (fr: string) => ({
      actionType: 'sanity.action.document.edit',
      draftId: 'drafts.service-email',
      publishedId: 'service-email',
      patch: { set: { 'title.fr': fr } },
    })
    await action([edit('Campagnes email, v1')])
    await action([edit('Campagnes email, v2')])
    await action([edit('Campagnes email, v3')])
    const { transactionId: published } = await action([
      { actionType: 'sanity.action.document.publish', draftId: 'drafts.service-email', publishedId: 'service-email' },
    ])
    const draftEvents = (await events('drafts.service-email')).events['drafts.service-email']
    expect(draftEvents.map((event) => event.type)).toEqual(['publishDocumentVersion', 'createDocumentVersion'])
    const [publish, created] = draftEvents as unknown as Record<string, string>[]
    expect(publish).toMatchObject({ revisionId: published, versionId: 'drafts.service-email', releaseId: '' })
    // What the Studio then asks for to show the edits: the draft's transactions since its creation.
    const lines = await transactions('drafts.service-email', {
      effectFormat: 'mendoza',
      excludeContent: 'true',
      includeIdentifiedDocumentsOnly: 'true',
      fromTransaction: created.versionRevisionId,
    })
    expect(lines.map((line) => line.id)).toEqual([
      created.versionRevisionId,
      expect.any(String),
      expect.any(String),
      published,
    ])
    expect(lines[3].effects?.['drafts.service-email'].apply).toEqual([0, null]) // the draft's end at publication
    expect(lines.at(-1)?.documentIDs).toEqual(['drafts.service-email']) // identified documents only
    expect(publish.versionRevisionId).toBe(lines[2].id) // the draft's last revision
    const publishedEvents = (await events('service-email')).events['service-email']
    expect(publishedEvents.map((event) => event.type)).toEqual(['publishDocumentVersion', 'createLiveDocument'])
    // Both documents as they were at the draft's last revision; the Studio keeps the one that had it.
    const pair = await documentsAt('service-email,drafts.service-email', { revision: lines[2].id })
    expect(pair.map((doc) => [doc._id, doc.title?.fr])).toEqual([
      ['service-email', 'Campagnes email'],
      ['drafts.service-email', 'Campagnes email, v3'],
    ])
    expect(pair.find((doc) => doc._rev === lines[2].id)?._id).toBe('drafts.service-email')
  })

  it('finds a deleted document’s last revision, for the Studio to restore it', async () => {
    await t.editor.create({ _id: 'note-deleted', _type: 'service', title: { fr: 'Avant' } })
    await t.editor.patch('note-deleted').set({ 'title.fr': 'Dernière version' }).commit()
    await action([{ actionType: 'sanity.action.document.delete', publishedId: 'note-deleted', includeDrafts: [] }])
    expect(await t.editor.getDocument('note-deleted')).toBeUndefined()
    const documents = await documentsAt('note-deleted,drafts.note-deleted', { lastRevision: 'true' })
    expect(documents).toEqual([
      expect.objectContaining({ _id: 'note-deleted', _rev: expect.any(String), title: { fr: 'Dernière version' } }),
    ])
    const listed = (await events('note-deleted')).events['note-deleted']
    expect(listed.map((event) => event.type)).toEqual([
      'deleteDocumentGroup',
      'updateLiveDocument',
      'createLiveDocument',
    ])
    // Restore as the Studio's deleted-document banner does it: create the draft from the last revision.
    const { _updatedAt: _ignored, ...restored } = documents[0]
    await action([
      {
        actionType: 'sanity.action.document.create',
        publishedId: 'note-deleted',
        attributes: { ...restored, _id: 'drafts.note-deleted' },
        ifExists: 'fail',
      },
    ])
    expect((await t.editor.getDocument('drafts.note-deleted'))?.title).toEqual({ fr: 'Dernière version' })
  })

  it('needs a token, as the hosted History API does', async () => {
    const response = await t.raw('/v2025-02-19/data/history/production/transactions/service-web')
    expect(response.status).toBe(401)
  })
})

describe('a history that outlives its server', () => {
  it('keeps the transactions in history.ndjson when the log is compacted at start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'content-lake-history-'))
    // One port for every start: on another, the assets' URLs would be rewritten by a new transaction.
    const port = await freePort()
    const start = () =>
      startContentLake({
        port,
        dataDir,
        seedDir: join(process.cwd(), 'studio', 'seed'),
        webhookUrl: null,
        log: () => {},
      })
    try {
      let lake = await start()
      const clientOf = (server: ContentLake) =>
        createClient({
          projectId: 'local',
          dataset: 'production',
          apiVersion: '2025-02-19',
          useCdn: false,
          apiHost: server.url,
          useProjectHostname: false,
          token: server.token,
        })
      let client = clientOf(lake)
      await client.patch('homePage').set({ 'hero.title.fr': 'Avant le redémarrage' }).commit()
      const { transactionId } = await client
        .patch('homePage')
        .set({ 'hero.title.fr': 'Après' })
        .commit({ returnDocuments: false })
      await lake.close()

      lake = await start()
      client = clientOf(lake)
      const file = (name: string) => readFileSync(join(dataDir, 'production', name), 'utf8')
      expect(file('transactions.ndjson')).toBe('')
      expect(file('history.ndjson')).toContain(transactionId)
      const lines = (
        await client.request<string>({
          url: '/data/history/production/transactions/homePage',
          query: { reverse: 'true', limit: '2' },
        })
      )
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Line)
      expect(lines[0].id).toBe(transactionId)
      const { documents } = await client.request<{ documents: Doc[] }>({
        url: '/data/history/production/documents/homePage',
        query: { revision: lines[1].id },
      })
      expect(documents[0]).toMatchObject({ _rev: lines[1].id, hero: { title: { fr: 'Avant le redémarrage' } } })
      // A second restart records nothing twice.
      const size = file('history.ndjson').length
      await lake.close()
      lake = await start()
      expect(file('history.ndjson').length).toBe(size)
      await lake.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
