import { connect as connectHttp2 } from 'node:http2'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startContentLake, type ContentLake } from './start-content-lake.ts'
import { ByteBoundedCache } from './byte-bounded-cache.ts'
import { MAX_QUERY_BODY_BYTES } from './query.ts'
import { halfTlsRecord, silentSocket, slowBody, slowHeaders } from '../connection-probes.ts'

/*
 * What one anonymous client must not be able to do to the local Content Lake (issue #20): stop it
 * with one expensive query, exhaust its memory, crash a request with deep parameters, lose a
 * write to an id like `__proto__`, or hold its connections open forever.
 */

const seedDir = join(process.cwd(), 'studio', 'seed')
/** `count(*[count(*[… _id != ""])>0])` nested `depth` times: over the seed, 5 levels take seconds, 6 minutes. */
const nestedCount = (depth: number): string => (depth === 0 ? '_id != ""' : `count(*[${nestedCount(depth - 1)}])>0`)

let lake: ContentLake
beforeAll(async () => {
  lake = await startContentLake({
    port: 0,
    seedDir,
    webhookUrl: null,
    log: () => {},
    queryWorkers: 1,
    queryTimeoutMs: 3_000,
    connectionTimeouts: { headersMs: 500, requestMs: 1_000, idleMs: 1_000 },
    keepAliveMs: 200,
  })
})
afterAll(() => lake?.close())

const query = (body: unknown, init: RequestInit = {}) =>
  fetch(`${lake.url}/v2025-02-19/data/query/production`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })
const mutate = (mutations: unknown[], url = lake.url, token = lake.token) =>
  fetch(`${url}/v2025-02-19/data/mutate/production`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ mutations }),
  })

describe('one query cannot stop the server', () => {
  it('answers pings while a pathological query runs, and ends that query with an error', async () => {
    let settled = false
    const slow = query({ query: `count(*[${nestedCount(6)}])` }).then(async (response) => {
      settled = true
      return { status: response.status, body: await response.json() }
    })
    const ping = await fetch(`${lake.url}/v1/ping`)
    expect(ping.status).toBe(200)
    expect(settled).toBe(false) // the ping did not wait behind the query
    const { status, body } = await slow
    expect(status).toBe(400)
    expect(body).toMatchObject({
      error: { type: 'queryExecutionError', description: expect.stringMatching(/time limit/) },
    })
    // The next query runs as usual.
    expect(await (await query({ query: 'count(*[_type == "service"]) > 0' })).json()).toMatchObject({ result: true })
  })

  it('stops a query whose client has gone away', async () => {
    // A lake whose time limit never comes into play: with one thread, `1 + 1` answers only if the
    // abandoned query (minutes of work) was stopped when its client went; otherwise the test hangs.
    const patient = await startContentLake({
      port: 0,
      seedDir,
      webhookUrl: null,
      log: () => {},
      queryWorkers: 1,
      queryTimeoutMs: 600_000,
    })
    try {
      const ask = (body: unknown, init: RequestInit = {}) =>
        fetch(`${patient.url}/v2025-02-19/data/query/production`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          ...init,
        })
      const controller = new AbortController()
      const abandoned = ask({ query: `count(*[${nestedCount(6)}])` }, { signal: controller.signal }).catch(() => null)
      await new Promise((resolve) => setTimeout(resolve, 100))
      controller.abort()
      await abandoned
      expect(await (await ask({ query: '1 + 1' })).json()).toMatchObject({ result: 2 })
    } finally {
      await patient.close()
    }
  })

  it('sees every committed write in the queries that follow it', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await mutate([{ createOrReplace: { _id: 'limits-seen', _type: 'limits', n: i } }])).status).toBe(200)
      expect(await (await query({ query: '*[_id == "limits-seen"][0].n' })).json()).toMatchObject({ result: i })
    }
  })
})

describe('bodies and parameters', () => {
  it(`refuses a query body over ${MAX_QUERY_BODY_BYTES} bytes with 413, as the hosted API's query size limit does`, async () => {
    const response = await query({ query: '$p', params: { p: 'x'.repeat(MAX_QUERY_BODY_BYTES) } })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ statusCode: 413, message: expect.stringMatching(/query size/i) })
  })

  it('answers 400 in the API shape to parameters nested 20,000 deep (POST and GET)', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`
    const posted = await query(`{"query":"$p","params":{"p":${deep}}}`)
    expect(posted.status).toBe(400)
    expect(await posted.json()).toMatchObject({
      error: { type: 'httpBadRequest', description: expect.stringMatching(/nested/) },
    })
    const got = await fetch(
      `${lake.url}/v2025-02-19/data/query/production?query=$p&$p=${encodeURIComponent('['.repeat(2_000) + ']'.repeat(2_000))}`,
    )
    expect(got.status).toBe(400)
    expect(await got.json()).toMatchObject({
      error: { type: 'queryParseError', description: expect.stringMatching(/nested/) },
    })
  })

  it('keeps the parsed-query cache within its byte budget, whatever the entries', () => {
    const cache = new ByteBoundedCache<string>(1_000, 400)
    for (let i = 0; i < 100; i++) cache.set(`key-${i}-${'x'.repeat(150)}`, 'tree', 300)
    expect(cache.bytes).toBeLessThanOrEqual(1_000)
    cache.set('huge', 'tree', 401) // over the per-entry limit: not kept
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.get(`key-99-${'x'.repeat(150)}`)).toBe('tree') // the newest stay
  })
})

describe('document ids', () => {
  it('stores and reads back ids named like Object.prototype members, across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lake-ids-'))
    const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'drafts.__proto__']
    try {
      let durable = await startContentLake({ port: 0, dataDir, webhookUrl: null, log: () => {} })
      for (const id of ids)
        expect(
          (await mutate([{ create: { _id: id, _type: 'limits', v: id } }], durable.url, durable.token)).status,
        ).toBe(200)
      const read = async (lakeNow: ContentLake) => {
        const response = await fetch(`${lakeNow.url}/v2025-02-19/data/doc/production/${ids.join(',')}`, {
          headers: { Authorization: `Bearer ${lakeNow.token}` },
        })
        return ((await response.json()) as { documents: { _id: string; v: string }[] }).documents.map((doc) => [
          doc._id,
          doc.v,
        ])
      }
      expect(await read(durable)).toEqual(ids.map((id) => [id, id]))
      await durable.close()
      durable = await startContentLake({ port: 0, dataDir, webhookUrl: null, log: () => {} })
      expect(await read(durable)).toEqual(ids.map((id) => [id, id]))
      await durable.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses the ids Sanity refuses, with a mutation error', async () => {
    for (const id of ['-leading-dash', 'drafts.-dash', 'a b', 'é', 'a/b', 'a..b', '.a', 'x'.repeat(129)]) {
      const response = await mutate([{ create: { _id: id, _type: 'limits' } }])
      expect(response.status, id).toBe(400)
      expect(await response.json(), id).toMatchObject({
        error: { type: 'mutationError', items: [{ error: { type: 'validationError' } }] },
      })
    }
  })
})

describe('connection timeouts', () => {
  it('closes silent sockets, dripped headers and bodies, and half-sent TLS records', async () => {
    const probes = [
      silentSocket,
      slowHeaders,
      halfTlsRecord,
      (port: number, wait: number) => slowBody(port, wait, '/v2025-02-19/data/query/production'),
    ]
    const closed = await Promise.all(
      probes.flatMap((probe) => Array.from({ length: 5 }, () => probe(lake.port, 30_000))),
    )
    expect(closed).toEqual(closed.map(() => true))
  })

  it('closes an HTTP/2 session that opens no stream', async () => {
    const session = connectHttp2(lake.httpsUrl, { rejectUnauthorized: false })
    session.on('error', () => {})
    const closed = await new Promise<boolean>((resolve) => {
      const deadline = setTimeout(() => resolve(false), 15_000)
      session.on('close', () => {
        clearTimeout(deadline)
        resolve(true)
      })
    })
    session.destroy()
    expect(closed).toBe(true)
  })

  it('keeps listener streams that send keep-alives open past the idle timeout (HTTP/1.1 and HTTP/2)', async () => {
    const path = '/v2025-02-19/data/listen/production?query=*%5B_type%20%3D%3D%20%22limits%22%5D'
    const plain = new Promise<{ chunks: number; open: boolean }>((resolve, reject) => {
      let chunks = 0
      let open = true
      const request = httpRequest({ host: '127.0.0.1', port: lake.port, path }, (response) => {
        response.on('data', () => chunks++)
        response.on('close', () => (open = false))
      })
      request.on('error', reject).end()
      setTimeout(() => {
        resolve({ chunks, open })
        request.destroy()
      }, 3_000)
    })
    const session = connectHttp2(lake.httpsUrl, { rejectUnauthorized: false })
    const secure = new Promise<{ chunks: number; open: boolean }>((resolve) => {
      let chunks = 0
      let open = true
      const stream = session.request({ ':path': path })
      stream.on('data', () => chunks++)
      stream.on('close', () => (open = false))
      session.on('close', () => (open = false))
      setTimeout(() => resolve({ chunks, open }), 3_000)
    })
    const [overPlain, overSecure] = await Promise.all([plain, secure])
    session.destroy()
    expect(overPlain.open).toBe(true)
    expect(overSecure.open).toBe(true)
    expect(overPlain.chunks).toBeGreaterThan(3) // welcome + keep-alives
    expect(overSecure.chunks).toBeGreaterThan(3)
  })
})
