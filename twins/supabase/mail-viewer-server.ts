// Command line of the local mail viewer: `node twins/supabase/mail-viewer-server.ts --help`.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { parseArgs } from 'node:util'
import { MailDev } from 'maildev'
import { DEFAULT_CONNECTION_TIMEOUTS, httpServerLimits, silentSocketMs } from '../connection-limits.ts'
import { isAllowedHost, isSameOrigin } from '../http-kit.ts'
import type { TwinIdentity } from '../twins.ts'

/*
 * What Inbucket is to `supabase start`: an SMTP server that keeps every email it receives and shows
 * them on a web page, so the emails the project's functions send offline can be read. MailDev (npm)
 * does the work; this script starts it on loopback with the twins' conventions: a throwaway or a kept
 * mail folder, a clean stop on SIGTERM, and GET /_twin saying which twin answers on the web port.
 *
 * The emails hold visitors' names, addresses, phones and messages, and MailDev 3 would hand them to any
 * page the developer opens: it answers CORS for every origin, with credentials (DELETE included), on
 * its API and on socket.io's, and takes any Host (DNS rebinding). Its web port here answers only its
 * own page: a loopback Host at its own port, no Origin but its own, no preflight, no CORS header.
 */

const HELP = `Local mail viewer (MailDev)

Receives email over SMTP and shows it in a web page, with MailDev's JSON API (GET /api/email lists
every email received). The local Supabase server's functions send through it when SMTP_URL is unset.

Usage: node twins/supabase/mail-viewer-server.ts [options]

Options:
  --port <n>            web page and JSON API (default 54324, Supabase's Inbucket port)
  --smtp-port <n>       SMTP (default 54325)
  --data-dir <folder>   keep the emails there across restarts (the newest 1,000)
  --memory              a throwaway folder, deleted when the viewer stops (default)
  --help                show this help
`

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '54324' },
    'smtp-port': { type: 'string', default: '54325' },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})
if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}

function port(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    console.error(`--${name} expects a port number, got "${text}"`)
    process.exit(2)
  }
  return Number(text)
}

const HOST = '127.0.0.1'
const webPort = port('port', values.port!)
const smtpPort = port('smtp-port', values['smtp-port']!)
const kept = values.memory ? undefined : values['data-dir']
if (kept) mkdirSync(kept, { recursive: true })
// MailDev writes each email's .eml file to a folder, by default one shared by every MailDev on the
// machine: a throwaway viewer gets its own.
const folder = kept ?? mkdtempSync(join(tmpdir(), 'mail-viewer-'))
const removeFolder = () => {
  if (!kept) rmSync(folder, { recursive: true, force: true })
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void
type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void

/**
 * Why the web port refuses a request, or null. The Host check is the twins' one (../http-kit.ts). A
 * browser sends Origin with every request a page makes to another origin but a GET without CORS (an
 * image, a link, a form's GET), whose answer the page cannot read, and with every WebSocket handshake.
 * A preflight only ever comes from another origin: a page's own requests are never preflighted.
 */
function refusal(request: IncomingMessage): string | null {
  const host = request.headers.host
  const port = request.socket.localPort
  if (host === undefined || !isAllowedHost(host, { port }))
    return `Unknown host "${host ?? ''}": the mail viewer answers at http://127.0.0.1:${port} (or localhost) only`
  const origin = request.headers.origin
  if (origin !== undefined && !isSameOrigin(origin, host, ['http']))
    return `Origin ${origin} refused: the mail viewer answers its own page only`
  if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined)
    return 'CORS preflight refused: the mail viewer answers its own page only'
  return null
}

const isCorsHeader = (name: string) => name.toLowerCase().startsWith('access-control-')

/**
 * Drops the Access-Control-* headers MailDev's CORS plugins (Fastify's and socket.io's) put on a
 * response, however they are set: set one by one (then in the response's header list) or handed to
 * writeHead, which Node also calls itself before a body written without it.
 */
function withoutCorsHeaders(response: ServerResponse) {
  const writeHead = response.writeHead
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    for (const name of this.getHeaderNames()) if (isCorsHeader(name)) this.removeHeader(name)
    // writeHead(status, [message], [headers]): headers as an object or a flat [name, value, …] list.
    const at = typeof args[1] === 'string' ? 2 : 1
    const headers = args[at]
    if (Array.isArray(headers)) {
      const kept: unknown[] = []
      for (let i = 0; i + 1 < headers.length; i += 2)
        if (!isCorsHeader(String(headers[i]))) kept.push(headers[i], headers[i + 1])
      args[at] = kept
    } else if (headers && typeof headers === 'object') {
      args[at] = Object.fromEntries(
        Object.entries(headers as OutgoingHttpHeaders).filter(([name]) => !isCorsHeader(name)),
      )
    }
    return (writeHead as (...rest: unknown[]) => ServerResponse).apply(this, args)
  } as ServerResponse['writeHead']
}

/**
 * A WebSocket handshake's answer goes straight to the socket (socket.io's, through the ws package,
 * with its CORS headers): the first thing written there, the answer's head, loses them.
 */
function withoutCorsInHandshake(socket: Duplex) {
  const write = socket.write
  socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
    socket.write = write
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('latin1') : null
    if (text?.startsWith('HTTP/')) {
      chunk = text
        .split('\r\n')
        .filter((line) => !isCorsHeader(line))
        .join('\r\n')
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
  } as Duplex['write']
}

function refuse(response: ServerResponse, reason: string) {
  response.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  response.end(JSON.stringify({ error: reason }))
}

function refuseUpgrade(socket: Duplex, reason: string) {
  const body = JSON.stringify({ error: reason })
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/**
 * Puts the web port's checks and GET /_twin in front of everything MailDev's server answers (it is
 * already listening): its requests (Fastify's routes and socket.io's polling) and its upgrades
 * (socket.io's WebSocket, the live updates of the page).
 */
function guardWebPort(server: Server, identity: TwinIdentity) {
  const handlers = server.listeners('request') as RequestListener[]
  server.removeAllListeners('request')
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const reason = refusal(request)
    if (reason) return refuse(response, reason)
    if (request.method === 'GET' && request.url === '/_twin') {
      response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
      response.end(JSON.stringify(identity))
      return
    }
    withoutCorsHeaders(response)
    for (const handler of handlers) handler.call(server, request, response)
  })
  const upgrades = server.listeners('upgrade') as UpgradeListener[]
  server.removeAllListeners('upgrade')
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const reason = refusal(request)
    if (reason) return refuseUpgrade(socket, reason)
    // Without a listener Node drops an upgrade: so does this one when MailDev has none.
    if (upgrades.length === 0) return socket.destroy()
    withoutCorsInHandshake(socket)
    for (const handler of upgrades) handler.call(server, request, socket, head)
  })
}

/*
 * What one client may cost. MailDev sets no limit on its web server, and passes its SMTP server the
 * message size only: a runaway script's thousands of sessions or slow connections would otherwise hold
 * the machine. A notification is a few kB.
 */
const MAX_MESSAGE_BYTES = 1024 * 1024
const MAX_SMTP_CLIENTS = 20
const MAX_WEB_CONNECTIONS = 100

/** The twins' limits on slow or silent clients (../connection-limits.ts) and a connection cap, on MailDev's web server. */
function limitWebPort(server: Server) {
  const limits = httpServerLimits(DEFAULT_CONNECTION_TIMEOUTS)
  server.headersTimeout = limits.headersTimeout!
  server.requestTimeout = limits.requestTimeout!
  server.keepAliveTimeout = limits.keepAliveTimeout!
  server.maxConnections = MAX_WEB_CONNECTIONS
  // socket.io pings its page every 25 s: only a socket nobody uses goes quiet this long.
  server.on('connection', (socket) =>
    socket.setTimeout(silentSocketMs(DEFAULT_CONNECTION_TIMEOUTS), () => socket.destroy()),
  )
}

const maildev = new MailDev({
  smtp: smtpPort,
  ip: HOST,
  web: webPort,
  webIp: HOST,
  mailDirectory: folder,
  maxEmails: 1000,
  maxMessageSize: MAX_MESSAGE_BYTES,
  silent: true,
})
try {
  const servers = await maildev.start()
  // smtp-server reads maxClients as each client connects; MailDev does not pass it through, so it is set
  // on the library's server MailDev holds.
  ;(servers.smtp as unknown as { smtp: { options: { maxClients?: number } } }).smtp.options.maxClients =
    MAX_SMTP_CLIENTS
  limitWebPort(servers.api!.server.server as Server)
  guardWebPort(servers.api!.server.server as Server, {
    twin: 'mail-viewer',
    dataDir: kept ? realpathSync(kept) : null,
    pid: process.pid,
  })
} catch (error) {
  removeFolder()
  const code = (error as { code?: string }).code
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${webPort} or ${smtpPort} on ${HOST} is already in use: stop what runs there, or pick others with --port and --smtp-port.`
      : `The local mail viewer could not start: ${error instanceof Error ? error.message : error}`,
  )
  process.exit(1)
}
console.log(
  `Local mail viewer: http://${HOST}:${webPort} (SMTP on ${HOST}:${smtpPort}; ${kept ? `emails in ${kept}` : 'throwaway'})`,
)

const stop = () => {
  maildev
    .stop()
    .catch(() => {})
    .finally(() => {
      removeFolder()
      process.exit(0)
    })
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
