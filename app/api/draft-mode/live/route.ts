import type { NextRequest } from 'next/server'
import { draftAccessUntil } from '@/lib/draft-mode/draft-access'
import { CONTENT_DEADLINE_MS, createSanityClient } from '@/lib/sanity/client'
import { sanityDataset } from '@/lib/sanity/env'
import { previewToken } from '@/lib/sanity/preview-token'

const noStore = { 'Cache-Control': 'no-store' }

/**
 * The Live Content API's event stream with drafts included, relayed to a previewed page (see
 * components/preview/live-drafts.tsx): the site's server reads it with the preview token, so the
 * browser never holds one. Only with draft access, and only until it ends: the stream is cut then.
 */
export async function GET(request: NextRequest) {
  const until = await draftAccessUntil()
  if (until === null) return Response.json({ error: 'No draft access' }, { status: 401, headers: noStore })
  const token = previewToken()
  if (!token)
    return Response.json(
      { error: 'Draft mode is not configured: set SANITY_API_READ_TOKEN' },
      { status: 501, headers: noStore },
    )

  const url = new URL(createSanityClient().getUrl(`/data/live/events/${sanityDataset}`, false))
  url.searchParams.set('includeDrafts', 'true')
  url.searchParams.set('tag', 'preview')
  const lastEventId = request.headers.get('last-event-id')
  let upstream: Response
  // The stream may last until draft access ends, but its answer must start within the deadline: a hung
  // Content Lake would otherwise hold the request (and the page's EventSource) open without a word.
  const answered = new AbortController()
  const deadline = setTimeout(() => answered.abort(), CONTENT_DEADLINE_MS)
  try {
    upstream = await fetch(url, {
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'text/event-stream',
        ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
      },
      signal: AbortSignal.any([request.signal, answered.signal, AbortSignal.timeout(Math.max(0, until - Date.now()))]),
      cache: 'no-store',
    })
  } catch {
    return Response.json({ error: 'The Content Lake cannot be reached' }, { status: 502, headers: noStore })
  } finally {
    clearTimeout(deadline)
  }
  if (!upstream.ok || !upstream.body) {
    await upstream.body?.cancel()
    return Response.json({ error: `The Content Lake answered ${upstream.status}` }, { status: 502, headers: noStore })
  }
  // no-transform: says to any proxy in front not to hold events back to compress them (our server
  // passes event streams through untouched: server/response-pipeline.ts).
  return new Response(upstream.body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  })
}
