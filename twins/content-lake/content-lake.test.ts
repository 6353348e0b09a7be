import type { MutationEvent, SanityClient, WelcomeEvent } from '@sanity/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentLake } from './start-content-lake.ts'
import { startTestLake, type TestLake } from './test-lake.ts'

/*
 * The local Content Lake's documents through the real @sanity/client (the one the Studio and the site
 * use): mutations and patches, transactions, revisions, actions, queries and perspectives, the listener.
 * Its edges (assets, authentication, bad input, presence, the webhook): content-lake-edges.test.ts.
 */

let test: TestLake
let lake: ContentLake
let editor: SanityClient
let anonymous: SanityClient
let raw: TestLake['raw']
let auth: TestLake['auth']
beforeAll(async () => {
  test = await startTestLake()
  ;({ lake, editor, anonymous, raw, auth } = test)
})
afterAll(() => test?.close())

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
    await editor.createOrReplace({
      _id: 'it-patch',
      _type: 'note',
      count: 1,
      tags: ['b'],
      text: 'Hello world',
      nested: { a: 1 },
    })
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
    await editor
      .transaction()
      .createOrReplace({ _id: 'it-q1', _type: 'bulk', n: 1 })
      .createOrReplace({ _id: 'it-q2', _type: 'bulk', n: 2 })
      .commit()
    await editor.mutate([{ patch: { query: '*[_type == $type]', params: { type: 'bulk' }, set: { flagged: true } } }])
    expect(await editor.fetch('*[_type == "bulk"] | order(n asc).flagged')).toEqual([true, true])
    await editor.delete({ query: '*[_type == "bulk"]' })
    expect(await editor.fetch('count(*[_type == "bulk"])')).toBe(0)
  })

  it('is all or nothing: a failing mutation undoes the transaction', async () => {
    const transaction = editor
      .transaction()
      .create({ _id: 'it-atomic', _type: 'note' })
      .patch('it-missing', (p) => p.set({ x: 1 }))
    await expect(transaction.commit()).rejects.toMatchObject({ statusCode: 404 })
    expect(await editor.getDocument('it-atomic')).toBeUndefined()
  })

  it('returns ids and documents when asked, and honours ifRevisionID', async () => {
    const result = await editor.mutate([{ createOrReplace: { _id: 'it-rev', _type: 'note', v: 1 } }], {
      returnDocuments: true,
    })
    const rev = (result as unknown as { _rev: string }[])[0]._rev
    expect(rev).toMatch(/^[A-Za-z0-9]{22}$/)
    const ids = await editor.mutate([{ patch: { id: 'it-rev', ifRevisionID: rev, set: { v: 2 } } }], {
      returnDocuments: false,
    })
    expect(ids.results).toEqual([{ id: 'it-rev', operation: 'update' }])
    await expect(editor.patch('it-rev').ifRevisionId(rev).set({ v: 3 }).commit()).rejects.toMatchObject({
      statusCode: 409,
    })
    expect((await editor.getDocument('it-rev'))?.v).toBe(2)
  })

  it('refuses to change _id or drop _type', async () => {
    await editor.createOrReplace({ _id: 'it-guard', _type: 'note' })
    await expect(editor.patch('it-guard').set({ _id: 'other' }).commit()).rejects.toMatchObject({ statusCode: 400 })
    await expect(editor.patch('it-guard').unset(['_type']).commit()).rejects.toMatchObject({ statusCode: 400 })
  })
})

describe('document actions', () => {
  const action = (actions: unknown[]) =>
    editor.request({ method: 'POST', uri: `/data/actions/${lake.dataset}`, body: { actions } })

  it('edits a published document through a new draft, publishes, unpublishes, discards and deletes', async () => {
    await editor.createOrReplace({ _id: 'it-act', _type: 'note', title: 'published' })
    await action([
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'drafts.it-act',
        publishedId: 'it-act',
        patch: { set: { title: 'draft' } },
      },
    ])
    expect((await editor.getDocument('drafts.it-act'))?.title).toBe('draft')
    expect((await editor.getDocument('it-act'))?.title).toBe('published')
    const published = await editor.getDocument('it-act')
    await expect(
      action([
        {
          actionType: 'sanity.action.document.publish',
          draftId: 'drafts.it-act',
          publishedId: 'it-act',
          ifPublishedRevisionId: 'stale',
        },
      ]),
    ).rejects.toMatchObject({ statusCode: 409 })
    await action([
      {
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.it-act',
        publishedId: 'it-act',
        ifPublishedRevisionId: published?._rev,
      },
    ])
    expect((await editor.getDocument('it-act'))?.title).toBe('draft')
    expect(await editor.getDocument('drafts.it-act')).toBeUndefined()
    await action([{ actionType: 'sanity.action.document.unpublish', draftId: 'drafts.it-act', publishedId: 'it-act' }])
    expect(await editor.getDocument('it-act')).toBeUndefined()
    expect((await editor.getDocument('drafts.it-act'))?.title).toBe('draft')
    await action([{ actionType: 'sanity.action.document.version.discard', versionId: 'drafts.it-act' }])
    expect(await editor.getDocument('drafts.it-act')).toBeUndefined()
    await editor.createOrReplace({ _id: 'it-act', _type: 'note' })
    await editor.createOrReplace({ _id: 'drafts.it-act', _type: 'note' })
    await action([
      { actionType: 'sanity.action.document.delete', publishedId: 'it-act', includeDrafts: ['drafts.it-act'] },
    ])
    expect(await editor.fetch('count(*[_id in ["it-act", "drafts.it-act"]])', {}, { perspective: 'raw' })).toBe(0)
  })

  it('creates a new draft and refuses unknown actions with a 400', async () => {
    await action([
      {
        actionType: 'sanity.action.document.create',
        publishedId: 'it-new',
        attributes: { _id: 'drafts.it-new', _type: 'note' },
        ifExists: 'fail',
      },
    ])
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
    expect(await editor.fetch(q, {}, { perspective: 'published' })).toEqual([
      { _id: 'it-persp', _originalId: null, title: 'published' },
    ])
    expect(await editor.fetch(q, {}, { perspective: 'drafts' })).toEqual([
      { _id: 'it-only-draft', _originalId: 'drafts.it-only-draft', title: 'new' },
      { _id: 'it-persp', _originalId: 'drafts.it-persp', title: 'draft' },
    ])
    expect((await editor.fetch(q, {}, { perspective: 'raw' })).map((doc: { _id: string }) => doc._id)).toEqual([
      'drafts.it-only-draft',
      'drafts.it-persp',
      'it-persp',
    ])
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
    expect(
      await editor.fetch(
        'count(*[_type == "persp" && [@, _id] match text::query($q)])',
        { q: '*' },
        { perspective: 'raw' },
      ),
    ).toBe(3)
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
      .listen(
        '*[_id in $ids]',
        { ids: ['it-listen', 'drafts.it-listen'] },
        {
          events: ['welcome', 'mutation'],
          effectFormat: 'mendoza',
          includeResult: true,
          includePreviousRevision: true,
        },
      )
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
    expect(appear).toMatchObject({
      type: 'mutation',
      documentId: 'it-listen',
      transition: 'appear',
      resultRev: created._rev,
      result: { n: 1 },
    })
    expect(appear.previousRev).toBeUndefined()
    expect(update).toMatchObject({
      transition: 'update',
      previousRev: created._rev,
      resultRev: patched._rev,
      previous: { n: 1 },
      result: { n: 2 },
    })
    expect(update.effects).toEqual({ apply: [0, patched], revert: [0, { ...created }] })
    expect(update.mutations).toEqual([{ createOrReplace: patched }])
    expect(disappear).toMatchObject({
      transition: 'disappear',
      previousRev: patched._rev,
      mutations: [{ delete: { id: 'it-listen' } }],
    })
  })

  it('refuses a listener with a broken filter (400)', async () => {
    const response = await raw(`/v2025-02-19/data/listen/production?query=${encodeURIComponent('*[')}`, {
      headers: auth(),
    })
    expect(response.status).toBe(400)
  })
})
