import { createServer, type Server } from 'node:http'
import { describe, expect, it } from 'vitest'
import { checkService, type ServiceCheck } from '@/lib/service-reachability'
import { closeNow, localServers } from './local-http-server'

// The check a server makes of its services when it starts: what an operator reads for a service that
// answers but refuses the key, has no such project, or cannot be reached, each naming its variable.

const listen = localServers()

/** A service that answers `status`, and the headers it was read with. */
async function serviceAnswering(status: number) {
  const seen: Record<string, string | string[] | undefined>[] = []
  const server: Server = createServer((request, response) => {
    seen.push(request.headers)
    response.writeHead(status, { 'Content-Type': 'application/json' }).end('{}')
  })
  return { url: await listen(server), seen, server }
}

const check = (url: string): ServiceCheck => ({
  what: 'the Content Lake (Sanity)',
  url: `${url}/v2025-10-01/data/query/production?query=1`,
  headers: { Authorization: 'Bearer sk-token' },
  variable: 'SANITY_PROJECT_API_URL',
  keyVariable: 'SANITY_API_READ_TOKEN',
  projectVariables: 'NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET',
})

describe('checking a service when the server starts', () => {
  it('one that answers with the key: nothing to say; the key was sent', async () => {
    const service = await serviceAnswering(200)
    expect(await checkService(check(service.url))).toBeNull()
    expect(service.seen[0].authorization).toBe('Bearer sk-token')
  })

  it('one that refuses the token: names the token’s variable', async () => {
    const service = await serviceAnswering(401)
    expect(await checkService(check(service.url))).toBe(
      `the Content Lake (Sanity) at ${service.url} refuses the key it is read with (HTTP 401): check SANITY_API_READ_TOKEN. The site serves what it has rendered and tries again on each request.`,
    )
  })

  it('one without that project or dataset: names their variables', async () => {
    const service = await serviceAnswering(404)
    expect(await checkService(check(service.url))).toBe(
      `the Content Lake (Sanity) at ${service.url} has no such project or dataset (HTTP 404): check NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET.`,
    )
  })

  it('one that cannot be reached: names where it is', async () => {
    const service = await serviceAnswering(200)
    await closeNow(service.server)
    expect(await checkService(check(service.url))).toMatch(
      /^the Content Lake \(Sanity\) at http:\/\/127\.0\.0\.1:\d+ does not answer \(ECONNREFUSED\): check SANITY_PROJECT_API_URL\./,
    )
  })
})
