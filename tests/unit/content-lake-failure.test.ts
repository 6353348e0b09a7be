import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { inspect } from 'node:util'
import { createClient } from '@sanity/client'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { explainContentLakeFailure } from '@/lib/sanity/content-lake-failure'
import { localServers } from './local-http-server'

// What the server's log shows of a failed read (Next logs each failed render's error): the reason in
// words, the variable to check, and never the read token (under Next, the client's own errors printed the
// request they made, its Authorization header included). The errors are @sanity/client's own, against
// local servers that fail as hosted misconfigurations do.

const TOKEN = 'skSecretReadToken0123456789'
const listen = localServers()

/** What @sanity/client throws for a query, read as fetch.ts reads (its `next` options use fetch). */
async function failureOf(apiHost: string): Promise<unknown> {
  const client = createClient({
    projectId: 'p1',
    dataset: 'production',
    apiVersion: '2025-10-01',
    apiHost,
    useProjectHostname: false,
    useCdn: false,
    token: TOKEN,
    maxRetries: 0,
  })
  return client.fetch('*[0]', {}, { next: { revalidate: false } } as object).then(
    () => expect.fail('the read succeeded'),
    (error: unknown) => error,
  )
}

describe("a failed read of the Content Lake, as the server's log shows it", () => {
  it('a token it refuses (401): names SANITY_API_READ_TOKEN; the token is nowhere', async () => {
    const url = await listen(
      createHttpServer((_, response) =>
        response
          .writeHead(401, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error: 'Unauthorized', message: 'Session not found', statusCode: 401 })),
      ),
      { host: 'localhost' },
    )
    const { error, unreachable } = explainContentLakeFailure(await failureOf(url), url, 3_000)
    expect(unreachable).toBeUndefined()
    expect(error.message).toMatch(/refused the read token \(.*Session not found.*\): check SANITY_API_READ_TOKEN$/)
    expect(inspect(error, { depth: 8 })).not.toContain(TOKEN)
  })

  it('a certificate Node does not trust: an outage that says so; the token is nowhere', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' })
    const url = await listen(
      createHttpsServer({ key: pems.private, cert: pems.cert }, (_, response) => response.end('{}')),
      { scheme: 'https', host: 'localhost' },
    )
    const { error, unreachable } = explainContentLakeFailure(await failureOf(url), url, 3_000)
    expect(unreachable).toMatch(/^presents a certificate this server does not trust \([A-Z_]+\)/)
    expect(error.message).toBe(`The Content Lake at ${url} ${unreachable}`)
    expect(inspect(error, { depth: 8 })).not.toContain(TOKEN)
  })

  it('a port fetch refuses to use: an outage, with fetch’s reason', async () => {
    const failure = await failureOf('http://127.0.0.1:1')
    expect(explainContentLakeFailure(failure, 'http://127.0.0.1:1', 3_000).unreachable).toBe(
      'cannot be reached (bad port)',
    )
  })

  it('get-it’s own timeout (draft mode reads without fetch): the deadline, without the address it names', () => {
    const timedOut = Object.assign(new Error('Socket timed out on request to http://127.0.0.1:1/v1/data/query?x=1'), {
      code: 'ESOCKETTIMEDOUT',
    })
    expect(explainContentLakeFailure(timedOut, 'http://127.0.0.1:1', 3_000).error.message).toBe(
      'The Content Lake at http://127.0.0.1:1 did not answer within 3 s',
    )
  })
})
