import type { Database } from './database.ts'

/*
 * The twin's pg_net background worker. bootstrap.sql gives the `net` schema pg_net's SQL side:
 * net.http_post / net.http_get put a request in net.http_request_queue and return its id. Here, as
 * pg_net's worker does, queued requests are taken once their transaction has committed (a rolled-back
 * call never runs), performed, and their outcome recorded in net._http_response under the same id:
 * status_code, content_type, headers, content, or timed_out / error_msg. Responses older than 6 hours
 * (pg_net.ttl's default) are deleted.
 *
 * Only loopback addresses are reached (the twin stands in for a project that calls its own functions);
 * any other URL is recorded as an error without a connection. The queue is read every `pollMs`
 * (pg_net's worker wakes up on its own too); drain() reads it at once, e.g. in a test.
 */

type QueuedRequest = {
  id: number
  method: string
  url: string
  headers: Record<string, unknown> | null
  body: string | null
  timeout_milliseconds: number
}

type RecordedResponse = {
  id: number
  status_code: number | null
  content_type: string | null
  headers: Record<string, string> | null
  content: string | null
  timed_out: boolean
  error_msg: string | null
}

export type NetWorkerOptions = {
  database: Pick<Database, 'db'>
  log: (entry: Record<string, unknown>) => void
  /** How often the queue is read (default 1 s); null: only when drain() is called. */
  pollMs?: number | null
  /** Requests taken per read (pg_net.batch_size's default: 200). */
  batchSize?: number
}

/** Whether a URL names this machine: 127.0.0.0/8, ::1 or localhost, over http(s). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url)
    if (protocol !== 'http:' && protocol !== 'https:') return false
    return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
  } catch {
    return false
  }
}

/** What the log shows of a URL: not its query string, which may carry a key. */
function withoutQuery(url: string): string {
  try {
    const { origin, pathname } = new URL(url)
    return `${origin}${pathname}`
  } catch {
    return '(not a URL)'
  }
}

function headersObject(headers: Headers): Record<string, string> {
  const object: Record<string, string> = {}
  headers.forEach((value, name) => {
    object[name] = value
  })
  return object
}

const failure = (id: number, error_msg: string, timed_out = false): RecordedResponse => ({
  id,
  status_code: null,
  content_type: null,
  headers: null,
  content: null,
  timed_out,
  error_msg,
})

export function startNetWorker({ database, log, pollMs = 1000, batchSize = 200 }: NetWorkerOptions) {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<number> = Promise.resolve(0)
  // Aborts the requests in flight when the twin stops (they are recorded as errors, as pg_net would
  // lose them with its worker).
  const stopping = new AbortController()

  async function perform(request: QueuedRequest): Promise<RecordedResponse> {
    if (!isLoopbackUrl(request.url))
      return failure(request.id, "The local twin's pg_net reaches loopback addresses only")
    const timeout = AbortSignal.timeout(request.timeout_milliseconds)
    try {
      // Inside the try: a header fetch() refuses is that request's error, not the batch's.
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, String(value))
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        body: request.method === 'GET' ? undefined : (request.body ?? undefined),
        redirect: 'manual',
        signal: AbortSignal.any([timeout, stopping.signal]),
      })
      const content = await response.text()
      return {
        id: request.id,
        status_code: response.status,
        content_type: response.headers.get('content-type'),
        headers: headersObject(response.headers),
        content,
        timed_out: false,
        error_msg: null,
      }
    } catch (error) {
      if (timeout.aborted) return failure(request.id, `Timeout of ${request.timeout_milliseconds} ms reached`, true)
      const cause = (error as { cause?: { message?: string } }).cause?.message
      return failure(request.id, cause ?? (error instanceof Error ? error.message : String(error)))
    }
  }

  async function drainOnce(): Promise<number> {
    const { rows } = await database.db.query<QueuedRequest>(
      `delete from net.http_request_queue
        where id in (select id from net.http_request_queue order by id limit $1)
        returning id::int as id, method::text as method, url, headers,
                  convert_from(body, 'UTF8') as body, timeout_milliseconds`,
      [batchSize],
    )
    if (rows.length === 0) return 0
    const responses = await Promise.all(rows.map(perform))
    await database.db.query(
      `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
       select id, status_code, content_type, headers, content, timed_out, error_msg
         from jsonb_to_recordset($1::jsonb) as r(id bigint, status_code integer, content_type text, headers jsonb,
                                                 content text, timed_out boolean, error_msg text)`,
      [JSON.stringify(responses)],
    )
    await database.db.query(`delete from net._http_response where created < now() - interval '6 hours'`)
    // What pg_net did is in net._http_response; the log shows only the calls that failed.
    rows.forEach((row, index) => {
      const { status_code: status, error_msg: error } = responses[index]
      if (error !== null || status === null || status >= 400)
        log({ event: 'net.request', id: row.id, url: withoutQuery(row.url), status, error })
    })
    return rows.length
  }

  /** Reads the queue now, after any read in progress; resolves with how many requests it performed. */
  function drain(): Promise<number> {
    const run = current.catch(() => 0).then(drainOnce)
    current = run.catch((error: unknown) => {
      log({ event: 'net.error', error: error instanceof Error ? error.message : String(error) })
      return 0
    })
    return run
  }

  function schedule() {
    if (stopped || pollMs === null) return
    timer = setTimeout(() => {
      void drain()
        .catch(() => 0)
        .finally(schedule)
    }, pollMs)
    timer.unref()
  }
  schedule()

  return {
    drain,
    /** Stops reading the queue, aborts requests in flight and waits for their outcome to be recorded. */
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      stopping.abort()
      await current
    },
  }
}

export type NetWorker = ReturnType<typeof startNetWorker>
