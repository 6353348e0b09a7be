import { createClient, type SanityClient } from '@sanity/client'
import { SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { createServer, request, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { startContentLake, type ContentLake } from './start-content-lake.ts'

/*
 * A Content Lake for a test file, in memory, seeded, spoken to through the real @sanity/client (the one
 * the Studio and the site use), with a receiver that records its revalidation webhooks.
 */

export type Webhook = { body: string; signature: string; headers: IncomingMessage['headers'] }
export type TestLake = {
  lake: ContentLake
  editor: SanityClient
  anonymous: SanityClient
  webhooks: Webhook[]
  /** A plain fetch of a path of the lake. */
  raw: (path: string, init?: RequestInit) => Promise<Response>
  /** The status of /v1/ping asked with this Host header (fetch() cannot set Host: a plain request can). */
  statusWithHost: (host: string) => Promise<number>
  /** The editor's Authorization header. */
  auth: () => { Authorization: string }
  close: () => Promise<void>
}

export async function startTestLake(): Promise<TestLake> {
  const webhooks: Webhook[] = []
  const receiver = createServer((incoming, response) => {
    let body = ''
    incoming.on('data', (chunk) => (body += chunk))
    incoming.on('end', () => {
      webhooks.push({ body, signature: String(incoming.headers[SIGNATURE_HEADER_NAME]), headers: incoming.headers })
      response.end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as { port: number }
  const lake = await startContentLake({
    port: 0,
    seedDir: join(process.cwd(), 'studio', 'seed'),
    webhookUrl: `http://127.0.0.1:${port}/api/revalidate`,
    log: () => {},
  })
  const config = {
    projectId: lake.projectId,
    dataset: lake.dataset,
    apiVersion: '2025-02-19',
    useCdn: false,
    apiHost: lake.url,
    useProjectHostname: false,
  }
  return {
    lake,
    editor: createClient({ ...config, token: lake.token }),
    anonymous: createClient(config),
    webhooks,
    raw: (path, init = {}) => fetch(`${lake.url}${path}`, init),
    statusWithHost: (host) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: lake.port, path: '/v1/ping', headers: { Host: host } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
          .on('error', reject)
          .end()
      }),
    auth: () => ({ Authorization: `Bearer ${lake.token}` }),
    close: async () => {
      await lake.close()
      receiver.close()
    },
  }
}
