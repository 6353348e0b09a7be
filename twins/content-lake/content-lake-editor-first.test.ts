import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startContentLake, type ContentLake } from './start-content-lake.ts'

/*
 * The editor first, whoever else is asking (security review; the lake is reachable by any page of a
 * developer's browser): an anonymous listener's expensive filter is stopped and its listener closed
 * while the editor writes and queries; streams are capped per client and in all, the editor's apart;
 * a listener that never reads is closed rather than buffered for. (The query threads' lines are
 * tested in query-pool.test.ts.)
 */

const API = '/v2025-02-19'
let lake: ContentLake
beforeAll(async () => {
  lake = await startContentLake({
    port: 0,
    seedDir: join(process.cwd(), 'studio', 'seed'),
    webhookUrl: null,
    log: () => {},
    keepAliveMs: 200,
    streamLimits: { maxBufferedBytes: 64 * 1024 },
  })
})
afterAll(() => lake?.close())

const editorHeaders = () => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${lake.token}` })
const mutate = (mutations: unknown[]) =>
  fetch(`${lake.url}${API}/data/mutate/production`, {
    method: 'POST',
    headers: editorHeaders(),
    body: JSON.stringify({ mutations }),
  })
const listenPath = (query: string, params: Record<string, unknown> = {}) => {
  const search = new URLSearchParams({ query })
  for (const [key, value] of Object.entries(params)) search.set(`$${key}`, JSON.stringify(value))
  return `${API}/data/listen/production?${search}`
}

type Stream = { status: number; text: () => string; ended: Promise<void>; close: () => void }

/** Opens a stream and reads it; resolves once its status is known. */
function openStream(path: string, { token = false, from = '127.0.0.1', to = lake } = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${to.token}` } : {}
    const request = httpRequest({ host: '127.0.0.1', port: to.port, path, headers, localAddress: from })
    request.on('error', reject)
    request.on('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      const ended = new Promise<void>((done) => response.on('close', done))
      resolve({ status: response.statusCode ?? 0, text: () => text, ended, close: () => request.destroy() })
    })
    request.end()
  })
}

/** Resolves once `stream` has received `pattern`, or has ended without it. */
async function received(stream: Stream, pattern: RegExp): Promise<boolean> {
  let ended = false
  void stream.ended.then(() => (ended = true))
  while (!pattern.test(stream.text()) && !ended) await new Promise((resolve) => setTimeout(resolve, 20))
  return pattern.test(stream.text())
}

describe('listener filters', () => {
  it('closes an anonymous listener whose filter runs past its budget, while the editor writes and queries', async () => {
    // n³ comparisons over 600 items: seconds per document, which the request thread used to spend
    // before it answered anyone else.
    const p = Array.from({ length: 600 }, (_, i) => i)
    const costly = await openStream(listenPath('*[count($p[count($p[@ in $p]) > 0]) > 0]', { p }))
    const cheap = await openStream(listenPath('*[_type == "editorFirst"]'))
    expect([costly.status, cheap.status]).toEqual([200, 200])
    expect(await received(costly, /event: welcome/)).toBe(true)

    const written = await mutate([{ createOrReplace: { _id: 'editor-first', _type: 'editorFirst', n: 1 } }])
    expect(written.status).toBe(200)
    const query = await fetch(`${lake.url}${API}/data/query/production`, {
      method: 'POST',
      headers: editorHeaders(),
      body: JSON.stringify({ query: '*[_id == "editor-first"][0].n' }),
    })
    expect(await query.json()).toMatchObject({ result: 1 })

    // A bound that only catches the old behaviour, where the stream stayed open and said nothing.
    const closed = await Promise.race([
      costly.ended.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 60_000)),
    ])
    expect(closed).toBe(true)
    expect(costly.text()).toMatch(/event: channelError\ndata: .*listener's filter exceeded the time limit/)
    expect(await received(cheap, /event: mutation\n.*\ndata: .*"documentId":"editor-first"/)).toBe(true)
    cheap.close()
  })

  it('refuses a filter and parameters longer than @sanity/client itself would send (414)', async () => {
    const response = await fetch(`${lake.url}${listenPath('*[_id == $id]', { id: 'a'.repeat(15_000) })}`)
    expect(response.status).toBe(414)
    expect(await response.json()).toMatchObject({ statusCode: 414, message: expect.stringMatching(/too large/) })
  })
})

describe('stream caps', () => {
  it('refuses the streams past the caps with a 429, never the editor for what anonymous clients opened', async () => {
    const capped = await startContentLake({
      port: 0,
      webhookUrl: null,
      log: () => {},
      streamLimits: { perClient: 2, anonymous: 3, withToken: 2 },
    })
    try {
      const open = (path: string, options: { token?: boolean; from?: string } = {}) =>
        openStream(path, { ...options, to: capped })
      const path = listenPath('*[_type == "editorFirst"]')
      const live = `${API}/data/live/events/production`
      const first = await open(path)
      const second = await open(live) // listeners and live events count together
      expect([first.status, second.status]).toEqual([200, 200])

      const third = await open(path)
      expect(third.status).toBe(429)
      await third.ended
      expect(JSON.parse(third.text())).toMatchObject({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/per client/),
      })
      // Another client address gets the last anonymous stream; then the total cap holds for it too.
      const other = await open(path, { from: '127.0.0.2' })
      expect(other.status).toBe(200)
      expect((await open(path, { from: '127.0.0.2' })).status).toBe(429)

      // The editor's streams have their own cap, which anonymous streams never used.
      const editorStreams = [await open(path, { token: true }), await open(live, { token: true })]
      expect(editorStreams.map((stream) => stream.status)).toEqual([200, 200])
      expect((await open(path, { token: true })).status).toBe(429)

      // A closed stream gives its place back (once the lake has seen it close).
      first.close()
      let again = await open(path)
      while (again.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        again = await open(path)
      }
      expect(again.status).toBe(200)
      for (const stream of [second, other, again, ...editorStreams]) stream.close()
    } finally {
      await capped.close()
    }
  })
})

describe('a client that does not read', () => {
  it('has its listener closed once its unsent data passes the bound, instead of the lake holding it', async () => {
    const WRITES = 16
    const socket = connect({ host: '127.0.0.1', port: lake.port })
    socket.on('error', () => {})
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(`GET ${listenPath('*[_type == "unread"]')} HTTP/1.1\r\nHost: 127.0.0.1:${lake.port}\r\n\r\n`)
    socket.pause() // reads nothing from here on
    await new Promise((resolve) => setTimeout(resolve, 200))
    // 16 events of over 1 MB each (result and mutation): more than the kernel's socket buffers hold.
    const body = 'x'.repeat(512 * 1024)
    for (let n = 0; n < WRITES; n++)
      expect((await mutate([{ createOrReplace: { _id: 'unread', _type: 'unread', n, body } }])).status).toBe(200)

    // Now read: a stream the lake closed ends once what reached the socket is read; one it kept
    // sends every event.
    const outcome = await new Promise<{ closed: boolean; events: number }>((resolve) => {
      const marker = 'event: mutation'
      let events = 0
      let tail = '' // the end of the last chunk, shorter than the marker: a marker cut in two is counted once
      socket.setEncoding('latin1')
      socket.on('data', (chunk: string) => {
        const text = tail + chunk
        events += text.split(marker).length - 1
        tail = text.slice(-(marker.length - 1))
        if (events >= WRITES) resolve({ closed: false, events })
      })
      socket.on('close', () => resolve({ closed: true, events }))
      socket.resume()
    })
    socket.destroy()
    expect(outcome.closed).toBe(true)
    expect(outcome.events).toBeLessThan(WRITES)
  })
})
