import type { Server as HttpServer, IncomingMessage } from 'node:http'
import type { Http2SecureServer } from 'node:http2'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'

/*
 * The Studio's presence socket (`wss://…/v2022-06-30/socket/<dataset>`, JSON-RPC 2.0 as
 * @sanity/bifur-client speaks it). Refused, the Studio retries it a dozen times and logs each failure
 * in the console; answered, it is quiet. One editor works locally, so presence is acknowledged and
 * never relayed: no avatars of other people appear.
 */

const SOCKET_PATH = /^\/v[^/]+\/socket\/[^/]+(\?|$)/
const HEARTBEAT_MS = 20_000
/**
 * Open sockets, in all (one per Studio tab): past it, 429. With the origin check this is a bound on
 * local processes, which no page can pass.
 */
const MAX_SOCKETS = 64
/** Answers waiting unsent to a client that sends requests and does not read them: past it, it is closed. */
const MAX_BUFFERED_BYTES = 256 * 1024

type RpcRequest = { jsonrpc?: string; id?: string; method?: string; params?: Record<string, unknown> }

function answer(socket: WebSocket, request: RpcRequest) {
  if (!request.id || typeof request.method !== 'string') return
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) return socket.terminate()
  const method = request.method
  let result: unknown = null
  if (method === 'authorization') result = true
  else if (method.endsWith('_subscribe')) result = `${method.slice(0, -'_subscribe'.length)}-${request.id}`
  else if (method.endsWith('_unsubscribe')) result = true
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result }))
}

/** `isAllowedOrigin` guards against other web pages opening the socket with the editor's browser. */
export function attachPresenceSocket(
  isAllowedOrigin: (origin: string | undefined) => boolean,
  ...servers: (HttpServer | Http2SecureServer)[]
) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  sockets.on('connection', (socket) => {
    const heartbeat = setInterval(() => socket.readyState === socket.OPEN && socket.send('♥'), HEARTBEAT_MS)
    socket.on('close', () => clearInterval(heartbeat))
    socket.on('error', () => socket.terminate())
    socket.on('message', (data) => {
      try {
        answer(socket, JSON.parse(String(data)) as RpcRequest)
      } catch {
        // not JSON-RPC: ignored, as the real socket ignores it
      }
    })
  })
  for (const server of servers) {
    server.on('upgrade', (request: IncomingMessage, stream: Duplex, head: Buffer) => {
      if (!SOCKET_PATH.test(request.url ?? '') || !isAllowedOrigin(request.headers.origin)) return stream.destroy()
      if (sockets.clients.size >= MAX_SOCKETS) {
        const message = JSON.stringify({
          statusCode: 429,
          error: 'Too Many Requests',
          message: `Too many open presence sockets: at most ${MAX_SOCKETS}`,
        })
        return stream.end(
          `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 10\r\nContent-Length: ${message.length}\r\nConnection: close\r\n\r\n${message}`,
        )
      }
      sockets.handleUpgrade(request, stream, head, (socket) => sockets.emit('connection', socket, request))
    })
  }
  return sockets
}
