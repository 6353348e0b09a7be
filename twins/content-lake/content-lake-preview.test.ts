import type { LiveEvent, SanityClient } from '@sanity/client'
import { stegaClean } from '@sanity/client/stega'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentLake } from './start-content-lake.ts'
import { startTestLake, type TestLake } from './test-lake.ts'

/*
 * What draft mode and the Presentation tool need from the local Content Lake, through the real
 * @sanity/client: Content Source Maps (which field each string of a result comes from, turned into
 * stega-encoded strings by the client) and the Live Content API's event stream.
 */

let test: TestLake
let lake: ContentLake
let editor: SanityClient
let anonymous: SanityClient
beforeAll(async () => {
  test = await startTestLake()
  ;({ lake, editor, anonymous } = test)
})
afterAll(() => test?.close())

/** Reads what @vercel/stega appended to a string: 4 × U+200B, then each byte of a JSON text as 4 base-4 digits. */
function decodeStega(value: string): { href?: string } | null {
  const digits = new Map([
    ['\u200B', 0],
    ['\u200C', 1],
    ['\u200D', 2],
    ['\uFEFF', 3],
  ])
  const start = value.indexOf('\u200B\u200B\u200B\u200B')
  if (start < 0) return null
  const encoded = [...value.slice(start + 4)]
  const bytes: number[] = []
  for (let i = 0; i + 3 < encoded.length; i += 4)
    bytes.push(encoded.slice(i, i + 4).reduce((byte, char) => byte * 4 + (digits.get(char) ?? 0), 0))
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bytes))) as { href?: string }
}

const heroQuery = `*[_id == "homePage"][0]{ _id, "title": select($locale == "en" => hero.title.en, hero.title.fr), "shout": hero.title.fr + "!" }`

describe('content source maps', () => {
  it('maps each string of a result to its document and field, and leaves computed strings unmapped', async () => {
    const response = await anonymous.fetch(
      heroQuery,
      { locale: 'en' },
      { filterResponse: false, resultSourceMap: 'withKeyArraySelector' },
    )
    const map = response.resultSourceMap
    expect(map).toBeDefined()
    const mapping = map?.mappings["$['title']"]
    expect(mapping).toMatchObject({ type: 'value', source: { type: 'documentValue' } })
    const source = mapping?.source as { document: number; path: number }
    expect(map?.documents[source.document]).toEqual({ _id: 'homePage', _type: 'homePage' })
    expect(map?.paths[source.path]).toBe("$['hero']['title']['en']")
    expect(map?.mappings["$['shout']"]).toBeUndefined()
    expect(map?.mappings["$['_id']"]).toBeUndefined()
  })

  it('is absent unless asked for', async () => {
    const response = await anonymous.fetch(heroQuery, { locale: 'fr' }, { filterResponse: false })
    expect(response).not.toHaveProperty('resultSourceMap')
  })

  it('names the draft a value comes from in the drafts perspective, and stega points the Studio at its field', async () => {
    const published = await editor.fetch<{ title: string }>(heroQuery, { locale: 'fr' })
    const home = (await editor.getDocument('homePage'))!
    await editor.createOrReplace({
      ...home,
      _id: 'drafts.homePage',
      hero: { ...(home.hero as object), title: { fr: 'Titre en brouillon', en: 'Draft title' } },
    })
    const drafts = editor.withConfig({ perspective: 'drafts' })
    const response = await drafts.fetch(
      heroQuery,
      { locale: 'fr' },
      { filterResponse: false, resultSourceMap: 'withKeyArraySelector' },
    )
    expect(response.result.title).toBe('Titre en brouillon')
    const source = response.resultSourceMap?.mappings["$['title']"]?.source as { document: number }
    expect(response.resultSourceMap?.documents[source.document]._id).toBe('drafts.homePage')

    const encoded = await drafts.fetch<{ title: string; shout: string }>(
      heroQuery,
      { locale: 'fr' },
      { stega: { enabled: true, studioUrl: '/studio' } },
    )
    expect(encoded.title).not.toBe('Titre en brouillon')
    expect(stegaClean(encoded.title)).toBe('Titre en brouillon')
    expect(decodeStega(encoded.title)?.href).toMatch(
      /^\/studio\/intent\/edit\/mode=presentation;id=homePage;type=homePage;path=hero\.title\.fr\?/,
    )
    expect(encoded.shout).toBe('Titre en brouillon!')
    // Published readers never see the draft.
    expect((await anonymous.fetch<{ title: string }>(heroQuery, { locale: 'fr' })).title).toBe(published.title)
    await editor.delete('drafts.homePage')
  })

  it('addresses Portable Text spans and array items by _key', async () => {
    await editor.createOrReplace({
      _id: 'csm-rich',
      _type: 'note',
      body: {
        fr: [
          {
            _type: 'block',
            _key: 'b1',
            style: 'normal',
            markDefs: [],
            children: [{ _type: 'span', _key: 's1', text: 'Un paragraphe unique', marks: [] }],
          },
        ],
      },
    })
    const response = await anonymous.fetch(
      `*[_id == "csm-rich"][0]{ "body": body.fr }`,
      {},
      { filterResponse: false, resultSourceMap: 'withKeyArraySelector' },
    )
    const map = response.resultSourceMap!
    const source = map.mappings["$['body'][0]['children'][0]['text']"]?.source as { path: number }
    expect(map.paths[source.path]).toBe("$['body']['fr'][?(@._key=='b1')]['children'][?(@._key=='s1')]['text']")
    const positional = await anonymous.fetch(
      `*[_id == "csm-rich"][0]{ "body": body.fr }`,
      {},
      { filterResponse: false, resultSourceMap: true },
    )
    const plain = positional.resultSourceMap!.mappings["$['body'][0]['children'][0]['text']"]?.source as {
      path: number
    }
    expect(positional.resultSourceMap!.paths[plain.path]).toBe("$['body']['fr'][0]['children'][0]['text']")
  })

  it('maps a value found in several documents to the one the result object names', async () => {
    await editor
      .transaction()
      .createOrReplace({ _id: 'csm-twin-a', _type: 'twin', order: 1, title: 'Même texte' })
      .createOrReplace({ _id: 'csm-twin-b', _type: 'twin', order: 2, title: 'Même texte' })
      .commit()
    const response = await anonymous.fetch(
      `*[_type == "twin"] | order(order desc){ _id, title }`,
      {},
      { filterResponse: false, resultSourceMap: 'withKeyArraySelector' },
    )
    const map = response.resultSourceMap!
    const documentOf = (path: string) =>
      map.documents[(map.mappings[path]?.source as { document: number }).document]._id
    expect(response.result.map((doc: { _id: string }) => doc._id)).toEqual(['csm-twin-b', 'csm-twin-a'])
    expect(documentOf("$[0]['title']")).toBe('csm-twin-b')
    expect(documentOf("$[1]['title']")).toBe('csm-twin-a')
  })
})

/** Collects live events until `count` have arrived (at most 5 s). */
function collect(
  client: SanityClient,
  options: { includeDrafts?: boolean },
  count: number,
  onWelcome: () => Promise<void>,
): Promise<LiveEvent[]> {
  return new Promise((resolve, reject) => {
    const events: LiveEvent[] = []
    const timer = setTimeout(() => {
      subscription.unsubscribe()
      reject(new Error(`only ${events.length} of ${count} live events in 5 s`))
    }, 5_000)
    const subscription = client.live.events(options).subscribe({
      next: (event) => {
        events.push(event)
        if (event.type === 'welcome') onWelcome().catch(reject)
        if (events.length === count) {
          clearTimeout(timer)
          subscription.unsubscribe()
          resolve(events)
        }
      },
      error: (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    })
  })
}

describe('live content events', () => {
  it('tells a published reader of published changes only, with the tag its queries carry', async () => {
    const { syncTags } = await anonymous.fetch(`*[_type == "service"][0].title`, {}, { filterResponse: false })
    expect(syncTags).toHaveLength(1)
    expect(syncTags?.[0]).toMatch(/^s1:/)
    let published = ''
    const events = await collect(anonymous, {}, 2, async () => {
      await editor.createOrReplace({ _id: 'drafts.live-doc', _type: 'note', title: 'draft only' })
      published = (
        await editor.transaction().createOrReplace({ _id: 'live-doc', _type: 'note', title: 'published' }).commit()
      ).transactionId
    })
    expect(events[0].type).toBe('welcome')
    // The draft's transaction came first and was not sent: the one message is the published change.
    expect(events[1]).toMatchObject({ type: 'message', id: published, tags: syncTags })
  })

  it('tells an editor of draft changes too, and refuses drafts without the token (401)', async () => {
    let draft = ''
    const events = await collect(editor, { includeDrafts: true }, 2, async () => {
      draft = (
        await editor
          .transaction()
          .createOrReplace({ _id: 'drafts.live-doc', _type: 'note', title: 'second draft' })
          .commit()
      ).transactionId
    })
    expect(events[1]).toMatchObject({ type: 'message', id: draft })
    const refused = await fetch(`${lake.url}/v2025-02-19/data/live/events/${lake.dataset}?includeDrafts=true`)
    expect(refused.status).toBe(401)
    const unknown = await fetch(`${lake.url}/v2025-02-19/data/live/events/elsewhere`)
    expect(unknown.status).toBe(404)
  })
})
