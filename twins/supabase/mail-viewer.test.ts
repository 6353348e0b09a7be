import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../free-port.ts'
import { twinOnPort } from '../twins.ts'

/*
 * The mail viewer's web port as a page in the developer's browser meets it: the emails (visitors'
 * names, addresses, phones, messages) go to the viewer's own page only. Another origin gets no CORS
 * header and no answer, DELETE and preflights included; a foreign Host (DNS rebinding) is refused;
 * socket.io's live updates (polling and WebSocket) are held to the same rules.
 */

let child: ChildProcess | undefined
let port: number
let smtpPort: number

beforeAll(async () => {
  port = await freePort()
  do smtpPort = await freePort()
  while (smtpPort === port)
  child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'mail-viewer-server.ts'), '--port', String(port), '--smtp-port', String(smtpPort)],
    { stdio: 'ignore' },
  )
  while ((await twinOnPort(port))?.twin !== 'mail-viewer') {
    if (child.exitCode !== null) throw new Error(`the mail viewer exited with ${child.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await sendEmail('Nouveau message de Jeanne')
  // MailDev stores what it received after answering SMTP: wait for the page's own listing to show it.
  while ((await emails()).length === 0) await new Promise((resolve) => setTimeout(resolve, 100))
})

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
})

/** One email over SMTP, each command sent once the server answered the one before. */
async function sendEmail(subject: string, body = 'Jeanne Martin, 06 12 34 56 78, 3 rue des Lilas') {
  const socket = connect(smtpPort, '127.0.0.1')
  let received = ''
  const reply = () =>
    new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        received += chunk.toString('utf8')
        // A reply is complete with its last line: the code then a space (`250 OK`, not `250-…`).
        const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(received)
        if (!match) return
        socket.off('data', onData)
        received = ''
        if (Number(match[1]) >= 400) reject(new Error(`SMTP refused: ${match[0].trim()}`))
        else resolve(match[1])
      }
      socket.on('data', onData)
    })
  await reply() // the greeting
  const message = [`Subject: ${subject}`, 'From: site@example.fr', 'To: agence@example.fr', '', body, '.'].join('\r\n')
  try {
    for (const command of [
      'EHLO test',
      'MAIL FROM:<site@example.fr>',
      'RCPT TO:<agence@example.fr>',
      'DATA',
      message,
    ]) {
      socket.write(`${command}\r\n`)
      await reply()
    }
  } finally {
    // Closed by the server once it has said goodbye: the session no longer counts against its limit.
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.end('QUIT\r\n')
    await closed
  }
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

/** A request with headers fetch() will not let us choose (Host), answered whole. */
function call(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, method, path, headers, setHost: !('Host' in headers) }
    const sent = httpRequest(options, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

async function emails(headers: Record<string, string> = {}): Promise<{ subject: string }[]> {
  const answer = await call('GET', '/api/email', headers)
  expect(answer.status).toBe(200)
  return JSON.parse(answer.body) as { subject: string }[]
}

const corsHeaders = (headers: IncomingHttpHeaders) =>
  Object.keys(headers).filter((name) => /^access-control-/i.test(name))

/** A WebSocket handshake on socket.io's path: the status it is answered with, and that answer's headers. */
function handshake(headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const options = {
      host: '127.0.0.1',
      port,
      path: '/socket.io/?EIO=4&transport=websocket',
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
      setHost: !('Host' in headers),
    }
    const sent = httpRequest(options)
    sent.on('upgrade', (response, socket) => {
      socket.destroy()
      resolve({ status: response.statusCode ?? 0, headers: response.headers })
    })
    sent.on('response', (response) => {
      response.resume()
      resolve({ status: response.statusCode ?? 0, headers: response.headers })
    })
    sent.on('error', reject)
    sent.end()
  })
}

const EVIL = 'http://evil.example'

describe("the mail viewer's web port answers its own page only", () => {
  it("refuses another origin's requests, reads and deletes alike, with no CORS header", async () => {
    const attempts = [
      await call('GET', '/api/email', { Origin: EVIL }),
      await call('GET', '/api/email/summary', { Origin: EVIL }),
      await call('DELETE', '/api/email/all', { Origin: EVIL }),
      await call('GET', '/socket.io/?EIO=4&transport=polling', { Origin: EVIL }),
      // Another port of this machine is another origin too (the site, another dev server).
      await call('DELETE', '/api/email/all', { Origin: 'http://localhost:3000' }),
      // A sandboxed or file:// page.
      await call('GET', '/api/email', { Origin: 'null' }),
    ]
    expect(attempts.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403])
    expect(attempts.flatMap((answer) => corsHeaders(answer.headers))).toEqual([])
    expect((await emails()).map((email) => email.subject)).toEqual(['Nouveau message de Jeanne'])
  })

  it('refuses CORS preflights', async () => {
    const preflight = await call('OPTIONS', '/api/email/all', {
      Origin: EVIL,
      'Access-Control-Request-Method': 'DELETE',
    })
    expect(preflight.status).toBe(403)
    expect(corsHeaders(preflight.headers)).toEqual([])
  })

  it('refuses a Host that is not its own (DNS rebinding), /_twin included', async () => {
    const hosts = [`evil.example:${port}`, 'evil.example', `127.0.0.1:${smtpPort}`, `localhost.evil.example:${port}`]
    const answers = await Promise.all(
      hosts.flatMap((Host) => ['/api/email', '/_twin', '/'].map((path) => call('GET', path, { Host }))),
    )
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 403))
    expect(answers.flatMap((answer) => corsHeaders(answer.headers))).toEqual([])
  })

  it('lists the emails to its own page, by any loopback name, with no CORS header', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const answer = await call('GET', '/api/email', { Host: host, Origin: `http://${host}` })
      expect(answer.status).toBe(200)
      expect(corsHeaders(answer.headers)).toEqual([])
      expect((JSON.parse(answer.body) as { subject: string }[]).map((email) => email.subject)).toEqual([
        'Nouveau message de Jeanne',
      ])
    }
    const page = await call('GET', '/', { Accept: 'text/html' })
    expect(page.status).toBe(200)
    expect(corsHeaders(page.headers)).toEqual([])
  })

  it("holds socket.io's WebSocket to the same rules: its own page's handshake only, with no CORS header", async () => {
    const foreignOrigin = await handshake({ Origin: EVIL })
    const foreignHost = await handshake({ Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` })
    expect([foreignOrigin.status, foreignHost.status]).toEqual([403, 403])
    const own = await handshake({ Origin: `http://127.0.0.1:${port}` })
    expect(own.status).toBe(101)
    expect(corsHeaders(own.headers)).toEqual([])
  })
})

/** The first line the SMTP port says to a new connection, and that connection. */
function smtpGreeting(): Promise<{ line: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(smtpPort, '127.0.0.1')
    socket.once('data', (chunk: Buffer) => resolve({ line: chunk.toString('utf8').trim(), socket }))
    socket.once('error', reject)
  })
}

describe('what one SMTP client may cost', () => {
  it('a message over 1 MB is refused', async () => {
    await expect(sendEmail('Trop lourd', `${'a'.repeat(76)}\r\n`.repeat(14_000))).rejects.toThrow(/SMTP refused: 552/)
  })

  it('past 20 sessions at once, the next is told to come back later', async () => {
    const open = await Promise.all(Array.from({ length: 20 }, () => smtpGreeting()))
    try {
      expect(open.map(({ line }) => line.slice(0, 3))).toEqual(open.map(() => '220'))
      const extra = await smtpGreeting()
      extra.socket.destroy()
      expect(extra.line).toMatch(/^421 /)
    } finally {
      for (const { socket } of open) socket.destroy()
    }
  })
})
