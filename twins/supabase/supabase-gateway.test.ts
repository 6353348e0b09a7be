import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { halfTlsRecord, silentSocket, slowBody, slowHeaders } from '../connection-probes.ts'
import { rawRequest, startTestTwin, type TestTwin } from './test-twin.ts'

/*
 * What the Supabase twin does around every request, before any table or function is involved: the
 * gateway's checks (API key, Host, CORS, paths that name nothing), the API roles' statement timeouts
 * as the platform sets them, the twin's own identity endpoint, and the limits on slow or silent clients.
 */

let twin: TestTwin
beforeAll(async () => {
  twin = await startTestTwin()
})
afterAll(() => twin.close())

describe("the gateway refuses what it cannot route, in the service's error shape", () => {
  const postgrestShape = (body: Record<string, unknown>) =>
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message'])

  it('missing or wrong API key → 401', async () => {
    expect((await fetch(`${twin.server.url}/rest/v1/messages`)).status).toBe(401)
    expect((await fetch(`${twin.server.url}/rest/v1/messages`, { headers: { apikey: 'wrong' } })).status).toBe(401)
  })

  it('answers CORS preflights and exposes Content-Range', async () => {
    const response = await fetch(`${twin.server.url}/rest/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey, authorization, content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
  })

  it('a badly percent-encoded REST path: 404, no such table', async () => {
    const { status, body } = await rawRequest(twin.server.url, 'GET', '/rest/v1/%E0%A4%A', twin.anon)
    expect(status).toBe(404)
    postgrestShape(body)
    expect(body.code).toBe('PGRST205')
  })

  it('a Host header with a space: 400 from the gateway', async () => {
    const { status, body } = await rawRequest(twin.server.url, 'GET', '/rest/v1/messages', {
      ...twin.anon,
      Host: 'a b',
    })
    expect(status).toBe(400)
    expect(body).toEqual({ message: 'Invalid Host header' })
  })

  it('a Host that is not this machine at this port (DNS rebinding): 403 on every path, /_twin included', async () => {
    const { url, port } = twin.server
    const foreign = [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`, `localhost:1`]
    const requests = foreign.flatMap((Host) => [
      rawRequest(url, 'GET', '/_twin', { Host }),
      rawRequest(url, 'GET', '/rest/v1/messages', { ...twin.anon, Host }),
      rawRequest(url, 'GET', '/auth/v1/health', { Host }),
      rawRequest(url, 'OPTIONS', '/rest/v1/messages', {
        Host,
        Origin: `http://${Host}`,
        'Access-Control-Request-Method': 'GET',
      }),
    ])
    const answers = await Promise.all(requests)
    expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 403))
    expect(answers[0].body).toEqual({
      message: `Unknown host "evil.example:${port}": the local Supabase API answers at http://127.0.0.1:${port} (or localhost) only`,
    })
    // The names the site may give NEXT_PUBLIC_SUPABASE_URL still reach it, its CORS unchanged.
    for (const Host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await rawRequest(url, 'GET', '/_twin', { Host })).status).toBe(200)
      const preflight = await rawRequest(url, 'OPTIONS', '/rest/v1/messages', {
        Host,
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'GET',
      })
      expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, '*'])
    }
  })

  it("a page of another site (its Origin not this machine's): 403, preflight included; this machine's pages any port", async () => {
    const { url } = twin.server
    const foreign = ['https://evil.example', 'http://localhost.evil.example:3000', 'null', 'file://']
    const answers = await Promise.all(
      foreign.flatMap((Origin) => [
        rawRequest(url, 'GET', '/rest/v1/messages', { ...twin.anon, Origin }),
        rawRequest(url, 'OPTIONS', '/rest/v1/messages', { Origin, 'Access-Control-Request-Method': 'GET' }),
      ]),
    )
    expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 403))
    expect(answers[0].body).toEqual({
      message:
        'Origin "https://evil.example" not allowed: the local Supabase answers pages of this machine only (http://localhost or 127.0.0.1, any port)',
    })
    for (const Origin of ['http://localhost:3000', 'http://127.0.0.1:41234', 'https://[::1]:8443'])
      expect((await rawRequest(url, 'GET', '/auth/v1/health', { Origin })).status).toBe(200)
  })
})

describe("the API roles' statement timeouts", () => {
  it("are read from the database as Supabase sets them: anon 3 s, authenticated 8 s, others the connection role's 8 s", () => {
    const roles = ['anon', 'authenticated', 'service_role'] as const
    expect(roles.map((role) => twin.server.database.statementTimeoutFor(role))).toEqual([3000, 8000, 8000])
  })
})

describe('GET /_twin (local only, not a hosted endpoint)', () => {
  it('says which twin answers, with its data folder (none in memory) and its process, to no page', async () => {
    const response = await fetch(`${twin.server.url}/_twin`, { headers: { Origin: 'http://localhost:3000' } })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    // No database port unless asked (dbPort): null.
    expect(await response.json()).toEqual({ twin: 'supabase', dataDir: null, pid: process.pid, dbPort: null })
  })
})

describe('connection timeouts on slow or silent clients', () => {
  let slow: TestTwin
  beforeAll(async () => {
    slow = await startTestTwin({ connectionTimeouts: { headersMs: 500, requestMs: 1_000, idleMs: 1_000 } })
  })
  afterAll(() => slow?.close())

  it('closes silent sockets, dripped headers and bodies, and stray TLS bytes', async () => {
    const probes = [
      silentSocket,
      slowHeaders,
      halfTlsRecord,
      (port: number, wait: number) => slowBody(port, wait, '/rest/v1/messages'),
    ]
    const closed = await Promise.all(
      probes.flatMap((probe) => Array.from({ length: 5 }, () => probe(slow.server.port, 15_000))),
    )
    expect(closed).toEqual(closed.map(() => true))
  })

  it('still answers ordinary requests', async () => {
    expect((await fetch(`${slow.server.url}/auth/v1/health`)).status).toBe(200)
  })
})
