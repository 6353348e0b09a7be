// Command line of the local mail viewer: `node local/supabase/mail-viewer-server.ts --help`.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { MailDev } from 'maildev'
import type { TwinIdentity } from '../twins.ts'

/*
 * What Inbucket is to `supabase start`: an SMTP server that keeps every email it receives and shows
 * them on a web page, so the emails the project's functions send offline can be read. MailDev (npm)
 * does the work; this script starts it on loopback with the twins' conventions: a throwaway or a kept
 * mail folder, a clean stop on SIGTERM, and GET /_twin saying which twin answers on the web port.
 */

const HELP = `Local mail viewer (MailDev)

Receives email over SMTP and shows it in a web page, with MailDev's JSON API (GET /api/email lists
every email received). The local Supabase server's functions send through it when SMTP_URL is unset.

Usage: node local/supabase/mail-viewer-server.ts [options]

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

/** GET /_twin on the web port, in front of MailDev's own routes (its server is already listening). */
function answerIdentity(server: Server, identity: TwinIdentity) {
  const handlers = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[]
  server.removeAllListeners('request')
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET' && request.url === '/_twin') {
      response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
      response.end(JSON.stringify(identity))
      return
    }
    for (const handler of handlers) handler.call(server, request, response)
  })
}

const maildev = new MailDev({
  smtp: smtpPort,
  ip: HOST,
  web: webPort,
  webIp: HOST,
  mailDirectory: folder,
  maxEmails: 1000,
  silent: true,
})
try {
  const servers = await maildev.start()
  answerIdentity(servers.api!.server.server as Server, {
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
