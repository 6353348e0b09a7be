import { createServer as createHttpServer } from 'node:http'
import {
  createSecureServer,
  constants as http2Constants,
  type Http2SecureServer,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2'
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import type { Server as HttpServer } from 'node:http'
import { httpServerLimits, silentSocketMs, type ConnectionTimeouts } from '../connection-limits.ts'
import type { Request, Response } from '../http-kit.ts'

/*
 * One port, two protocols: the first byte of a connection tells a TLS handshake (HTTP/2 over TLS, for
 * the Studio in a browser) from a plain HTTP/1.1 request (Node clients: the site, scripts, the Sanity
 * CLI). Every stage of a connection has a time limit (issue #20: slow headers, silent sockets and
 * half-sent TLS records stayed open forever): the first byte, the TLS handshake, the request headers,
 * the request body, and idleness between requests. A response in progress — a listener's stream —
 * is never cut: its request is complete and it writes keep-alives.
 */
export type DualProtocolServer = {
  port: number
  /** The two inner servers (for upgrade handlers such as the presence socket). */
  plain: HttpServer
  secure: Http2SecureServer
  close: () => Promise<void>
}

export async function listenDualProtocol(options: {
  host: string
  port: number
  tls: { key: string; cert: string }
  timeouts: ConnectionTimeouts
  handle: (request: Request, response: Response) => void
}): Promise<DualProtocolServer> {
  const { timeouts, handle } = options
  const plain = createHttpServer(httpServerLimits(timeouts), handle)
  plain.timeout = silentSocketMs(timeouts)
  const secure = createSecureServer(
    { key: options.tls.key, cert: options.tls.cert, allowHTTP1: true, handshakeTimeout: timeouts.headersMs },
    (request, response) => {
      // The compatibility API's request and response stand in for HTTP/1.1's (see ../http-kit.ts).
      handle(request as unknown as Request, response as unknown as Response)
    },
  )
  secure.setTimeout(0) // replaced by the limits below, which look at streams rather than bytes
  secure.on('session', (session: ServerHttp2Session) => limitSession(session, timeouts))
  secure.on('stream', (stream: ServerHttp2Stream) => limitStream(stream, timeouts))
  const sockets = new Set<Socket>()
  const front = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    // Until its first byte the connection belongs to no server: it gets the headers limit here.
    socket.setTimeout(timeouts.headersMs, () => socket.destroy())
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0)
      socket.pause()
      socket.unshift(chunk)
      ;(chunk[0] === 0x16 ? secure : plain).emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  })

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject)
    front.listen(options.port, options.host, () => {
      front.off('error', reject)
      resolve()
    })
  })
  // The HTTP servers get their connections from `front` and never listen themselves, but Node
  // starts checking headersTimeout / requestTimeout on 'listening' only: without this, never.
  plain.emit('listening')
  secure.emit('listening')
  return {
    port: (front.address() as AddressInfo).port,
    plain,
    secure,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => front.close(() => resolve()))
      plain.close()
      secure.close()
    },
  }
}

/**
 * An HTTP/2 session must open a stream within the headers limit, and is closed once it has had no
 * stream for the idle limit — whatever frames it trickles (pings, half a HEADERS frame) meanwhile.
 */
function limitSession(session: ServerHttp2Session, timeouts: ConnectionTimeouts) {
  let open = 0
  let timer: NodeJS.Timeout | undefined
  const arm = (ms: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => session.destroy(), ms)
    timer.unref()
  }
  arm(timeouts.headersMs)
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++
    clearTimeout(timer)
    stream.once('close', () => {
      if (--open === 0 && !session.destroyed) arm(timeouts.idleMs)
    })
  })
  session.once('close', () => clearTimeout(timer))
}

/** An HTTP/2 request whose body is still arriving when the request limit passes is cancelled. */
function limitStream(stream: ServerHttp2Stream, timeouts: ConnectionTimeouts) {
  if (stream.endAfterHeaders) return // no body: complete already
  const timer = setTimeout(() => {
    if (!stream.readableEnded && !stream.headersSent) stream.close(http2Constants.NGHTTP2_CANCEL)
  }, timeouts.requestMs)
  timer.unref()
  stream.once('close', () => clearTimeout(timer))
}
