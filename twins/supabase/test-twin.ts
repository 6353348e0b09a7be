import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startLocalSupabase, type LocalSupabaseOptions } from './start-local-supabase.ts'

/*
 * For this package's own tests of the Supabase twin: the twin over a project of its own with no
 * migration and no function (what a bare `supabase init` makes), so that they test the twin's
 * behaviour (gateway, auth, limits) and nothing of a site. Tests that need a site's tables or
 * functions belong to that site; a test of a platform feature (cron, functions, RPC) writes the few
 * files it needs into its own project (`files`).
 */

/** An in-memory twin of an empty project on a free loopback port, its log captured instead of printed. */
export async function startTestTwin({
  files = {},
  ...options
}: Omit<LocalSupabaseOptions, 'supabaseDir'> & {
  /** Files of the project, by path in its folder (`migrations/1_x.sql`, `functions/f/handler.ts`). */
  files?: Record<string, string>
} = {}) {
  const project = mkdtempSync(join(tmpdir(), 'supabase-twin-project-'))
  mkdirSync(join(project, 'migrations'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
  const logs: Record<string, unknown>[] = []
  try {
    const server = await startLocalSupabase({
      supabaseDir: project,
      port: 0,
      log: (entry) => logs.push(entry),
      ...options,
    })
    const keyHeaders = (key: string) => ({ apikey: key, Authorization: `Bearer ${key}` })
    return {
      server,
      logs,
      /** The headers of a request with the anon key or the service-role key. */
      anon: keyHeaders(server.anonKey),
      service: keyHeaders(server.serviceRoleKey),
      close: async () => {
        await server.close()
        rmSync(project, { recursive: true, force: true })
      },
    }
  } catch (error) {
    rmSync(project, { recursive: true, force: true })
    throw error
  }
}

export type TestTwin = Awaited<ReturnType<typeof startTestTwin>>

let counter = 0
/** A fresh client address per call, for X-Forwarded-For behind a trusted proxy (its own throttle buckets). */
export function clientAddress(): string {
  counter++
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`
}

/** What rawRequest gets back: the status, the headers and the JSON body (null when empty). */
export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: Record<string, unknown> }

/** A request fetch() would refuse to send (TRACE, a Host header of our choosing, any path bytes). */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const target = new URL(url)
    const options = { host: target.hostname, port: target.port, method, path, headers, setHost: !('Host' in headers) }
    const call = httpRequest(options, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
        }),
      )
    })
    call.on('error', reject)
    call.end(body)
  })
}

/**
 * Opens `count` keep-alive connections to the server first: requests sent right after reuse them and
 * reach the server together, as a fast client's would (new connections would trickle in one by one).
 */
export async function openConnections(url: string, count: number) {
  await Promise.all(
    Array.from({ length: count }, () => fetch(`${url}/auth/v1/health`).then((response) => response.arrayBuffer())),
  )
}
