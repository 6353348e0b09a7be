import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket'
import { createServer, type Server, type Socket } from 'node:net'
import type { EngineHold } from './database.ts'
import { quoteLiteral as literal } from './postgrest-query.ts'

/*
 * The database on a Postgres port, as `supabase start` offers it on 54322: psql, a migration run by
 * hand, any Postgres client. The wire protocol's framing is PGlite's own server's
 * (@electric-sql/pglite-socket, one PGLiteSocketHandler per connection); who runs when is ours.
 *
 * PGlite has one session. A client holds the engine (Database.hold) from each message until the
 * engine says it is idle outside a transaction (ReadyForQuery « I »): the site's requests queued
 * meanwhile wait, and never run inside the client's transaction. Between its turns the client's session
 * settings (SET ROLE, SET …) are put aside and the session reset, then restored for its next message,
 * so neither the site nor another client inherits them. What it may cost the site, stated: a message
 * runs STATEMENT_MS at most (then, as an API statement past its timeout, 57014 and a fresh engine; the
 * client's session ends), and a transaction left idle while others wait is ended after
 * IDLE_IN_TRANSACTION_MS, as Postgres' idle_in_transaction_session_timeout ends it (FATAL 25P03).
 *
 * Sign-in as Supabase's local database: user `postgres`, password `postgres` (cleartext on loopback:
 * the port listens on 127.0.0.1 only), database `postgres`. The first bytes must be a Postgres startup,
 * SSL or cancel request, or the connection is closed: a web page posting to this port gets nothing.
 */

export const STATEMENT_MS = 15_000
/** As Postgres' authentication_timeout (60 s there): a connection not signed in by then is closed. */
export const AUTHENTICATION_MS = 10_000
export const IDLE_IN_TRANSACTION_MS = 2_000
const MAX_CONNECTIONS = 10
const MAX_STARTUP_BYTES = 10_000
const PROTOCOL_3 = 196_608
const SSL_REQUEST = 80_877_103
const GSSENC_REQUEST = 80_877_104
const CANCEL_REQUEST = 80_877_102

export type PostgresSocketOptions = {
  hold: () => Promise<EngineHold>
  host?: string
  port: number
  password?: string
  /** How long a connection has to sign in (AUTHENTICATION_MS; tests use a short one). */
  authenticationMs?: number
  log?: (entry: Record<string, unknown>) => void
}

type Connection = {
  handler: PGLiteSocketHandler
  socket: Socket
  phase: 'startup' | 'password' | 'ready' | 'closed'
  startup?: Uint8Array
  user?: string
  database?: string
  hold: EngineHold | null
  /** SQL that restores the client's session settings for its next turn. */
  saved: string
  chain: Promise<unknown>
  watch?: NodeJS.Timeout
}

/** A backend message: its type, then its length (itself included) and body. */
function backend(type: string, body: Buffer): Uint8Array {
  const head = Buffer.alloc(5)
  head.write(type, 0, 'latin1')
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

const errorResponse = (severity: 'FATAL' | 'ERROR', code: string, message: string) =>
  backend('E', Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${message}\0\0`, 'utf8'))

/** The status of the last ReadyForQuery in the engine's answer (I idle, T in a transaction, E failed one), if any. */
function readyStatus(bytes: Uint8Array): string | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let status: string | null = null
  for (let at = 0; at + 5 <= view.length; at += 1 + Math.max(4, view.readInt32BE(at + 1)))
    if (view[at] === 0x5a && at + 5 < view.length) status = String.fromCharCode(view[at + 5])
  return status
}

/** The startup message's parameters (user, database, …). */
function startupParameters(message: Uint8Array): Record<string, string> {
  const fields = Buffer.from(message).subarray(8).toString('utf8').split('\0')
  const parameters: Record<string, string> = {}
  for (let i = 0; i + 1 < fields.length && fields[i]; i += 2) parameters[fields[i]] = fields[i + 1]
  return parameters
}

/** Whether a connection's first bytes are a Postgres client's (startup, SSL, GSSAPI or cancel request). */
function postgresGreeting(first: Buffer): boolean {
  if (first.length < 8) return false
  const length = first.readInt32BE(0)
  const code = first.readInt32BE(4)
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) return length === 8
  if (code === CANCEL_REQUEST) return length === 16
  return code === PROTOCOL_3 && length <= MAX_STARTUP_BYTES
}

export async function startPostgresSocket({
  hold,
  host = '127.0.0.1',
  port,
  password = 'postgres',
  authenticationMs = AUTHENTICATION_MS,
  log = () => {},
}: PostgresSocketOptions): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  const connections = new Map<number, Connection>()

  /** The client's session put aside (its settings and role), the session reset, the engine let go. */
  async function letGo(connection: Connection, { rollback = false } = {}) {
    clearInterval(connection.watch)
    const held = connection.hold
    if (!held) return
    connection.hold = null
    try {
      if (rollback) await held.exec('rollback')
      const [state] = await held.exec(
        `select coalesce(current_setting('role', true), 'none') as role,
                coalesce((select json_agg(json_build_array(name, setting)) from pg_settings
                           where source in ('session', 'client') and name not in ('role', 'session_authorization')),
                         '[]') as settings`,
      )
      const { role, settings } = state.rows[0] as { role: string; settings: [string, string][] }
      connection.saved = [
        ...settings.map(([name, value]) => `select set_config(${literal(name)}, ${literal(value)}, false)`),
        ...(role === 'none' ? [] : [`select set_config('role', ${literal(role)}, false)`]),
      ].join(';\n')
      await held.exec('reset all; reset role; reset session authorization')
    } catch (error) {
      log({ event: 'db-port.reset-failed', error: (error as Error).message })
    } finally {
      held.release()
    }
  }

  /** Ends a connection with a FATAL message, as Postgres ends a backend. */
  async function terminate(connection: Connection, code: string, message: string, onData: (data: Uint8Array) => void) {
    if (connection.phase === 'closed') return
    connection.phase = 'closed'
    await letGo(connection, { rollback: true })
    onData(errorResponse('FATAL', code, message))
    void connection.handler.detach(true)
  }

  /** While the client keeps the engine inside a transaction: ended once others have waited IDLE_IN_TRANSACTION_MS. */
  function watchIdle(connection: Connection, onData: (data: Uint8Array) => void) {
    let waited = 0
    connection.watch = setInterval(() => {
      waited = connection.hold && connection.hold.waiting() > 0 ? waited + 100 : 0
      if (waited >= IDLE_IN_TRANSACTION_MS)
        void terminate(connection, '25P03', 'terminating connection due to idle-in-transaction timeout', onData)
    }, 100)
    connection.watch.unref()
  }

  /** One message of a signed-in client: the engine taken (its session restored), the message run, let go if idle. */
  async function run(connection: Connection, message: Uint8Array, onData: (data: Uint8Array) => void) {
    clearInterval(connection.watch)
    if (!connection.hold) {
      connection.hold = await hold()
      if (connection.saved) await connection.hold.exec(connection.saved)
    }
    let answer: Uint8Array
    try {
      answer = await connection.hold.protocol(message, STATEMENT_MS)
    } catch {
      // The engine restarted (database.ts): this session is gone with it.
      connection.hold.release()
      connection.hold = null
      return terminate(connection, '57014', 'canceling statement due to statement timeout', onData)
    }
    onData(answer)
    if (readyStatus(answer) === 'I') await letGo(connection)
    else watchIdle(connection, onData)
  }

  async function receive(connection: Connection, message: Uint8Array, onData: (data: Uint8Array) => void) {
    if (connection.phase === 'closed') return
    const type = String.fromCharCode(message[0])
    if (connection.phase === 'startup') {
      const parameters = startupParameters(message)
      connection.startup = message
      connection.user = parameters.user ?? ''
      connection.database = parameters.database || connection.user
      connection.phase = 'password'
      return onData(backend('R', Buffer.from([0, 0, 0, 3])))
    }
    if (connection.phase === 'password') {
      const given = type === 'p' ? Buffer.from(message).subarray(5).toString('utf8').replace(/\0$/, '') : null
      if (connection.user !== 'postgres' || given !== password)
        return terminate(connection, '28P01', `password authentication failed for user "${connection.user}"`, onData)
      if (connection.database !== 'postgres')
        return terminate(connection, '3D000', `database "${connection.database}" does not exist`, onData)
      connection.phase = 'ready'
      connection.saved = ''
      return run(connection, connection.startup!, onData)
    }
    if (type === 'X') {
      connection.phase = 'closed'
      return letGo(connection, { rollback: true })
    }
    return run(connection, message, onData)
  }

  /** The handler's queue, one per connection: its messages in order, each through receive(). */
  function queueFor(own: Connection) {
    return {
      enqueue(_id: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
        const done = own.chain.then(() => receive(own, message, onData))
        own.chain = done.catch((error: Error) => log({ event: 'db-port.error', error: error.message }))
        return done.then(() => message.length)
      },
      clearQueueForHandler() {},
      async clearTransactionIfNeeded() {
        own.phase = 'closed'
        await own.chain
        await letGo(own, { rollback: true })
      },
    }
  }

  const server: Server = createServer((socket: Socket) => {
    if (connections.size >= MAX_CONNECTIONS) {
      socket.end(Buffer.from(errorResponse('FATAL', '53300', 'sorry, too many clients already')))
      return
    }
    // A connection that does not sign in in time (silent, or stuck before its password) frees its slot.
    const signIn = setTimeout(() => {
      const connection = [...connections.values()].find((each) => each.socket === socket)
      if (!connection || connection.phase === 'startup' || connection.phase === 'password') socket.destroy()
    }, authenticationMs)
    signIn.unref()
    socket.once('close', () => clearTimeout(signIn))
    socket.once('data', (first: Buffer) => {
      if (!postgresGreeting(first)) return socket.destroy()
      // GSSAPI encryption is not offered (as SSL is not): the client goes on in the clear.
      if (first.readInt32BE(4) === GSSENC_REQUEST) {
        socket.write('N')
        first = first.subarray(8)
      }
      // The handler is made with the connection's queue, then set on it (receive() needs both).
      const connection = { phase: 'startup', hold: null, saved: '', chain: Promise.resolve() } as Omit<
        Connection,
        'handler' | 'socket'
      > as Connection
      const handler = new PGLiteSocketHandler({
        queryQueue: queueFor(connection) as unknown as PGLiteSocketHandlerOptions['queryQueue'],
        closeOnDetach: true,
      })
      connection.handler = handler
      connection.socket = socket
      connections.set(handler.handlerId, connection)
      handler.addEventListener('close', () => connections.delete(handler.handlerId))
      handler.addEventListener('error', () => connections.delete(handler.handlerId))
      // attach() listens before it returns: the first bytes go to it, then the rest as they come.
      void handler.attach(socket)
      if (first.length > 0) socket.emit('data', first)
    })
  })
  server.maxConnections = MAX_CONNECTIONS + 1
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  return {
    port: bound,
    url: `postgresql://postgres:${password}@${host}:${bound}/postgres`,
    close: async () => {
      for (const connection of connections.values()) await connection.handler.detach(true)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
