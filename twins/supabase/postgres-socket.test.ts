import { createConnection } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_SERVICE_ROLE_KEY } from './supabase-cli-settings.ts'
import { startLocalSupabase, type LocalSupabase } from './start-local-supabase.ts'
import { startPostgresSocket } from './postgres-socket.ts'

/*
 * The database on its Postgres port (postgres-socket.ts), as psql and any Postgres client reach it:
 * Supabase's local credentials, the API roles at work, the same rows as the REST API, and a client's
 * session or open transaction never leaking into the site's requests nor holding them long.
 */

let supabase: LocalSupabase
const clients: pg.Client[] = []
beforeAll(async () => {
  supabase = await startLocalSupabase({
    supabaseDir: join(process.cwd(), 'supabase'),
    port: 0,
    dbPort: 0,
    log: () => {},
    netPollMs: null,
  })
})
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {})
  await supabase?.close()
})

async function connect(url = supabase.dbUrl!) {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  clients.push(client)
  await client.connect()
  return client
}
const rest = (path: string, init: RequestInit = {}) =>
  fetch(`${supabase.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: LOCAL_SERVICE_ROLE_KEY,
      Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
      ...init.headers,
    },
  })

describe('the database port', () => {
  it('signs in as Supabase’s local database does, and refuses anything else', async () => {
    expect(supabase.dbUrl).toMatch(/^postgresql:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/)
    const refused = (url: string) =>
      connect(url).then(
        () => 'signed in',
        (error: { code?: string }) => error.code,
      )
    expect(await refused(supabase.dbUrl!.replace(':postgres@', ':wrong@'))).toBe('28P01')
    expect(await refused(supabase.dbUrl!.replace(/\/postgres$/, '/other'))).toBe('3D000')
    // A web page posting to the port (HTTP, not Postgres) gets nothing back.
    const port = Number(new URL(supabase.dbUrl!).port)
    const answer = await new Promise<string>((resolve) => {
      let received = ''
      const socket = createConnection(port, '127.0.0.1', () => socket.write('POST / HTTP/1.1\r\nHost: x\r\n\r\n'))
      socket.on('data', (data) => (received += data.toString()))
      socket.on('close', () => resolve(received))
    })
    expect(answer).toBe('')
  })

  it('reads and writes what the REST API does, and shows the policies at work under the API roles', async () => {
    const client = await connect()
    await client.query(
      `insert into public.contact_submissions (name, email, message) values ('Par psql', 'psql@example.fr', 'Écrit depuis psql, lu par l’API.')`,
    )
    const read = await (await rest('contact_submissions?email=eq.psql@example.fr&select=name')).json()
    expect(read).toEqual([{ name: 'Par psql' }])
    const written = await rest('contact_submissions', {
      method: 'POST',
      body: JSON.stringify({ name: 'Par l’API', email: 'api@example.fr', message: 'Écrit par l’API, lu par psql.' }),
    })
    expect(written.status).toBe(201)
    expect((await client.query(`select name from contact_submissions where email = 'api@example.fr'`)).rows).toEqual([
      { name: 'Par l’API' },
    ])
    await client.query('set role anon')
    const denied = await client.query('select count(*) from contact_submissions').catch((error) => error)
    expect(denied.code).toBe('42501')
    // The site's requests meanwhile are not anon's; the client's next statement still is.
    expect((await rest('contact_submissions?select=name&order=name')).status).toBe(200)
    expect((await client.query('select current_user')).rows).toEqual([{ current_user: 'anon' }])
    expect((await supabase.database.db.query('select current_user')).rows).toEqual([{ current_user: 'postgres' }])
    await client.query('reset role')
  })

  it('a transaction left open while the site waits is ended, as idle_in_transaction_session_timeout ends it', async () => {
    const client = await connect()
    const ended = new Promise<{ code?: string }>((resolve) => client.once('error', resolve))
    await client.query('begin')
    await client.query(
      `insert into public.contact_submissions (name, email, message) values ('Jamais validé', 'open@example.fr', 'Une transaction laissée ouverte.')`,
    )
    // The site's request waits for the engine, then is answered; the client's transaction is gone.
    const response = await rest('contact_submissions?email=eq.open@example.fr&select=name')
    expect(await response.json()).toEqual([])
    expect((await ended).code).toBe('25P03')
  })

  it('a client gone mid-transaction lets go of the engine, its transaction rolled back', async () => {
    const client = await connect()
    await client.query('begin')
    await client.query(
      `insert into public.contact_submissions (name, email, message) values ('Parti', 'gone@example.fr', 'Un client parti sans rien dire.')`,
    )
    // The connection drops without a word (no Terminate), as a killed psql's does.
    ;(client as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy()
    const response = await rest('contact_submissions?email=eq.gone@example.fr&select=name')
    expect(await response.json()).toEqual([])
  })
})

describe('the database port, before signing in', () => {
  it('closes a connection that does not sign in within the authentication timeout', async () => {
    const held = { waiting: 0 }
    const server = await startPostgresSocket({
      hold: () => {
        held.waiting++
        throw new Error('a connection that never signed in took the engine')
      },
      port: 0,
      authenticationMs: 200,
    })
    const closes = (send: Buffer | null) =>
      new Promise<boolean>((resolve) => {
        const socket = createConnection(server.port, '127.0.0.1', () => send && socket.write(send))
        socket.on('error', () => {})
        // Read what comes (the password request), or the end behind it is never seen.
        socket.resume()
        socket.on('close', () => resolve(true))
      })
    // Silent; then a startup message and no password.
    const startup = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 3, 0, 0]), Buffer.from('user\0postgres\0\0')])
    startup.writeInt32BE(startup.length, 0)
    expect(await Promise.all([closes(null), closes(startup)])).toEqual([true, true])
    expect(held.waiting).toBe(0)
    await server.close()
  })
})
