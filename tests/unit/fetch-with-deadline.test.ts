import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createClient } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { createFetchWithDeadline, RETRY_AFTER_CAP_S } from '@/lib/supabase/fetch-with-deadline'
import { localServers } from './local-http-server'

// The browser's deadline on Supabase, with supabase-js's own retries (postgrest-js): a Supabase that
// hangs costs one deadline, a long Retry-After is cut, and an Edge Function gets its own deadline.
// Deadlines here are a fraction of a second; the site's are in the module.

const listen = localServers()

/** A local stand-in for Supabase that answers each request as `answer` says; resolves with its URL and requests. */
async function supabaseThat(answer: (request: IncomingMessage, response: ServerResponse, count: number) => void) {
  const seen: string[] = []
  const url = await listen(
    createServer((request, response) => {
      seen.push(request.url ?? '')
      answer(request, response, seen.length)
    }),
  )
  return { url, seen }
}

const clientOf = (url: string, fetch: typeof globalThis.fetch) =>
  createClient(url, 'anon', { global: { fetch }, auth: { persistSession: false, autoRefreshToken: false } })

describe('fetch with a deadline, under supabase-js', () => {
  it('a Supabase that hangs: the read fails at its deadline, asked once (postgrest-js retries no aborted request)', async () => {
    const supabase = await supabaseThat(() => {})
    const { data, error } = await clientOf(supabase.url, createFetchWithDeadline(200)).from('messages').select('*')
    expect(data).toBeNull()
    expect(error?.message).toContain('no answer within 0.2 s')
    expect(supabase.seen).toHaveLength(1)
  })

  it(`a 503 asking to come back in an hour is tried again after ${RETRY_AFTER_CAP_S} s at most`, async () => {
    const supabase = await supabaseThat((_, response, count) => {
      if (count === 1) response.writeHead(503, { 'Retry-After': '3600' }).end()
      else response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]')
    })
    const { data, error } = await clientOf(supabase.url, createFetchWithDeadline(2_000)).from('messages').select('*')
    expect(error).toBeNull()
    expect(data).toEqual([])
    expect(supabase.seen).toHaveLength(2)
  }, 30_000)

  it('an Edge Function gets its own deadline; the rest keeps the shorter one', async () => {
    const supabase = await supabaseThat((_, response) => {
      setTimeout(() => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), 300)
    })
    const fetchIt = createFetchWithDeadline(100, 2_000)
    expect((await fetchIt(`${supabase.url}/functions/v1/send-contact-email`, { method: 'POST' })).status).toBe(200)
    await expect(fetchIt(`${supabase.url}/rest/v1/messages`)).rejects.toMatchObject({ name: 'AbortError' })
  })
})
