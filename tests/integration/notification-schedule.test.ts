import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@plume/twins/free-port'
import { randomUUID } from 'node:crypto'
import { startTestSupabase, type TestSupabase } from './local-supabase'
import { startSmtpReceiver, type SmtpReceiver } from '@plume/twins/smtp-receiver'

/*
 * The retry schedule as the local Supabase server runs it, the way a Supabase project does: the
 * migration's pg_cron job (cron.job) calls net.http_post with the project URL and the service-role key
 * read from Vault; the twin's pg_net worker performs the queued request and records the answer in
 * net._http_response. Here the job's command is run as the cron runner runs it, and the worker's queue
 * is read at once (drain) rather than waited for.
 */

let test: TestSupabase
let smtp: SmtpReceiver
const savedSmtpUrl = process.env.SMTP_URL

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  process.env.SMTP_URL = smtp.url
  test = await startTestSupabase({ contactRateLimit: 1000 })
})
afterAll(async () => {
  await test.close()
  await smtp.close()
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL
  else process.env.SMTP_URL = savedSmtpUrl
})

const db = () => test.server.database.db
/** The responses pg_net recorded for these request ids. */
const responses = async (ids: number[]) =>
  (
    await db().query<{
      id: number
      status_code: number | null
      content: string | null
      timed_out: boolean
      error_msg: string | null
    }>(
      `select id::int as id, status_code, content, timed_out, error_msg from net._http_response where id = any($1::bigint[]) order by id`,
      [ids],
    )
  ).rows
const post = async (url: string, timeout = 5000) =>
  (
    await db().query<{ id: number }>(
      `select net.http_post(url := $1, body := '{"hello": "world"}'::jsonb, timeout_milliseconds := $2)::int as id`,
      [url, timeout],
    )
  ).rows[0].id

describe('the schedule of retries', () => {
  it('is a pg_cron job every 5 minutes, and the twin keeps its URL and service key in Vault for it', async () => {
    const jobs = (
      await db().query(`select schedule, active from cron.job where jobname = 'retry-contact-notifications'`)
    ).rows
    expect(jobs).toEqual([{ schedule: '*/5 * * * *', active: true }])
    const secrets = (
      await db().query<{ name: string; decrypted_secret: string }>(
        `select name, decrypted_secret from vault.decrypted_secrets where name in ('project_url', 'service_role_key') order by name`,
      )
    ).rows
    expect(secrets).toEqual([
      { name: 'project_url', decrypted_secret: test.server.url },
      { name: 'service_role_key', decrypted_secret: test.server.serviceRoleKey },
    ])
  })

  it('is in Vault before the twin answers: a message stored the moment it answers is announced', async () => {
    const port = await freePort()
    let up = false
    const starting = startTestSupabase({ port }).finally(() => (up = true))
    // The scripts take a twin as started once it answers: it used to answer before its Vault held
    // the secrets the webhook reads, and a message stored then was never announced.
    let answered = false
    for (let poll = 0; poll < 12_000 && !answered; poll++) {
      answered = (await fetch(`http://127.0.0.1:${port}/_twin`).catch(() => null))?.ok ?? false
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(up).toBe(true)
    const early = await starting
    try {
      const id = randomUUID()
      const message = { id, name: 'Camille Martin', email: 'early@example.fr', message: 'Bonjour, tout de suite.' }
      expect((await early.anon().from('contact_submissions').insert(message)).error).toBeNull()
      const asked = `select url from net.http_request_queue where convert_from(body, 'UTF8')::jsonb->>'id' = '${id}'`
      expect(await early.stored(asked)).toEqual([{ url: `${early.server.url}/functions/v1/send-contact-email` }])
    } finally {
      await early.close()
    }
  })

  it("the job's run sends a due failed notification through pg_net and the function, and pg_net records the answer", async () => {
    const id = randomUUID()
    const marker = 'scheduled@example.fr'
    await test
      .anon()
      .from('contact_submissions')
      .insert({ id, name: 'Camille Martin', email: marker, message: 'Bonjour, un message à relancer.' })
      .throwOnError()
    await db().query(
      `update public.contact_submissions
          set notification_status = 'delivery_failed', notification_error = 'ETIMEDOUT: earlier failure',
              notification_attempts = 1, notification_next_attempt_at = now() - interval '1 second'
        where id = $1`,
      [id],
    )
    const [{ command }] = (
      await db().query<{ command: string }>(
        `select command from cron.job where jobname = 'retry-contact-notifications'`,
      )
    ).rows
    // As the cron runner runs a job: one transaction, as postgres.
    const [, run] = await db().exec(`select set_config('role', 'postgres', true);\n${command}`)
    const requestId = Number(run.rows[0].request_id)
    await test.server.net.drain()
    const [answer] = await responses([requestId])
    expect(answer).toMatchObject({ status_code: 200, timed_out: false, error_msg: null })
    expect(JSON.parse(answer.content!)).toMatchObject({ ok: true })
    expect(smtp.received.filter((mail) => mail.raw.includes(marker))).toHaveLength(1)
    const [row] = await test.stored(`select notification_status from public.contact_submissions where id = '${id}'`)
    expect(row.notification_status).toBe('sent')
  })
})

describe("the twin's pg_net", () => {
  let server: ReturnType<typeof createServer>
  let url: string
  const seen: { method: string; body: string; contentType: string | undefined }[] = []
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        seen.push({ method: request.method ?? '', body, contentType: request.headers['content-type'] })
        if (request.url === '/slow') return void setTimeout(() => response.end('late'), 2_000)
        response.writeHead(201, { 'Content-Type': 'text/plain' }).end(`got ${body}`)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('performs a committed net.http_post with its JSON body and records status, headers and content', async () => {
    const id = await post(`${url}/hook`)
    expect(typeof id).toBe('number')
    await test.server.net.drain()
    expect(seen.at(-1)).toEqual({ method: 'POST', body: '{"hello": "world"}', contentType: 'application/json' })
    const [answer] = await responses([id])
    expect(answer).toMatchObject({ status_code: 201, content: 'got {"hello": "world"}', error_msg: null })
    expect((await db().query(`select count(*)::int as n from net.http_request_queue`)).rows).toEqual([{ n: 0 }])
  })

  it('never performs a call whose transaction rolled back', async () => {
    const before = seen.length
    await db().exec(`begin; select net.http_post(url := '${url}/rolled-back'); rollback;`)
    await test.server.net.drain()
    expect(seen.length).toBe(before)
  })

  it('reaches loopback only, and records refused connections and timeouts as pg_net does', async () => {
    const before = seen.length
    const outside = await post('http://192.0.2.10/hook')
    const closed = await post(`http://127.0.0.1:${await freePort()}/hook`)
    const slow = await post(`${url}/slow`, 200)
    await test.server.net.drain()
    const [a, b, c] = await responses([outside, closed, slow])
    expect(a).toMatchObject({ status_code: null, timed_out: false, error_msg: expect.stringMatching(/loopback/) })
    expect(b).toMatchObject({ status_code: null, timed_out: false, error_msg: expect.stringMatching(/ECONNREFUSED/) })
    expect(c).toMatchObject({ status_code: null, timed_out: true, error_msg: 'Timeout of 200 ms reached' })
    expect(seen.length).toBe(before + 1) // only the slow one reached a server
  })
})
