import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { BAD_REQUEST_POLICY, createSiteServer, type SiteTimeouts } from './http-server.ts'
import { securityHeaders } from '../lib/security/security-headers.ts'

/*
 * The server server/main.ts runs, with a handler that echoes the target it receives, spoken to over raw
 * sockets: the request line and the pace are the client's, as an attacker's would be.
 */

const LONG = 60_000
/** How long a test waits for the server to close a socket before saying it never did. */
const GIVE_UP_MS = 10_000

let server: Server | undefined
afterEach(async () => {
  const stopping = server
  server = undefined
  if (!stopping) return
  stopping.closeAllConnections()
  await new Promise<void>((resolve) => stopping.close(() => resolve()))
})

async function start(timeouts: Partial<SiteTimeouts> = {}): Promise<number> {
  server = createSiteServer(
    (request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(request.url ?? '') })
      response.end(request.url)
    },
    {
      timeouts: { headersTimeout: LONG, requestTimeout: LONG, keepAliveTimeout: LONG, idleTimeout: LONG, ...timeouts },
    },
  )
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server!.address() as AddressInfo).port
}

type Conversation = { socket: Socket; received: () => string; closed: Promise<'closed' | 'still open'> }

function open(port: number): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (text += chunk))
    socket.on('error', () => {})
    const closed = new Promise<'closed' | 'still open'>((done) => {
      socket.once('close', () => done('closed'))
      setTimeout(() => done('still open'), GIVE_UP_MS).unref()
    })
    socket.once('connect', () => resolve({ socket, received: () => text, closed }))
    socket.once('error', reject)
  })
}

/** Writes `chunk` every `everyMs` until the socket closes (a slow client keeping the socket busy). */
function trickle(socket: Socket, chunk: string, everyMs: number) {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(chunk)), everyMs)
  socket.once('close', () => clearInterval(timer))
}

describe('the site server (server/http-server.ts)', () => {
  it('hands an absolute-form target to the site as its path: the request line cannot name another host', async () => {
    const port = await start()
    const { socket, received, closed } = await open(port)
    socket.end('GET http://evil.example/en?x=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    expect(await closed).toBe('closed')
    expect(received()).toMatch(/^HTTP\/1\.1 200 /)
    expect(received().split('\r\n\r\n')[1]).toBe('/en?x=1')
  })

  it('answers 400 to a target the router cannot take, with the security headers and a policy that allows nothing', async () => {
    const port = await start()
    for (const target of ['/%ff', '*']) {
      const { socket, received, closed } = await open(port)
      socket.end(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)
      expect(await closed).toBe('closed')
      const [head, body] = received().split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1\.1 400 /)
      const headers = new Map(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      for (const { key, value } of securityHeaders)
        expect([target, key, headers.get(key.toLowerCase())]).toEqual([target, key, value])
      expect(headers.get('content-security-policy')).toBe(BAD_REQUEST_POLICY)
      expect(headers.get('cache-control')).toBe('no-store')
      expect(headers.get('content-type')).toMatch(/^text\/plain/)
      expect(body).toMatch(/^Adresse invalide : le site ne peut pas la lire\.\nBad Request: /)
    }
    expect(BAD_REQUEST_POLICY).toMatch(/default-src 'none'/)
    expect(BAD_REQUEST_POLICY).toMatch(/frame-ancestors 'none'/)
  })

  it('closes a connection on which nothing is sent', async () => {
    const port = await start({ idleTimeout: 300 })
    const { closed } = await open(port)
    expect(await closed).toBe('closed')
  })

  it('closes a connection whose headers never end, however busy the client keeps it', async () => {
    const port = await start({ headersTimeout: 300, requestTimeout: 400 })
    const { socket, closed } = await open(port)
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n')
    trickle(socket, 'X-Slow: 1\r\n', 50)
    expect(await closed).toBe('closed')
  })

  it('closes a connection whose body never ends', async () => {
    const port = await start({ headersTimeout: 300, requestTimeout: 400 })
    const { socket, closed } = await open(port)
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n')
    trickle(socket, 'x', 50)
    expect(await closed).toBe('closed')
  })

  it('closes a kept-alive connection that sends no further request', async () => {
    const port = await start({ keepAliveTimeout: 300 })
    const { socket, received, closed } = await open(port)
    socket.write('GET /en HTTP/1.1\r\nHost: localhost\r\n\r\n')
    expect(await closed).toBe('closed')
    expect(received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\/en$/)
  })
})
