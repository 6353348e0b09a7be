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
    return unavailable('the Content Lake cannot be reached')
  } finally {
    clearTimeout(deadline)
  }
  if (!upstream.ok || !upstream.body) {
    await upstream.body?.cancel()
    // A refusal (a wrong token: 4xx) ends the page's listening; an outage (5xx) only pauses it.
    if (upstream.status < 500)
      return Response.json({ error: `The Content Lake answered ${upstream.status}` }, { status: 502, headers: noStore })
    return unavailable(`the Content Lake answered ${upstream.status}`)
  }
  return new Response(upstream.body, { headers: EVENT_STREAM })
}

// no-transform: says to any proxy in front not to hold events back to compress them (our server
// passes event streams through untouched: server/response-pipeline.ts).
const EVENT_STREAM = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
}

/** How long the page's EventSource waits before asking again during an outage. */
const RETRY_MS = 5_000

/**
 * An outage, told as the event stream's own words: one `unavailable` event and the end of the stream,
 * which an EventSource answers by connecting again after `retry` (an error status would end it for
 * good, and the page would stop following edits once the Content Lake is back). The page refreshes on
 * the first `welcome` that follows (components/preview/live-drafts.tsx).
 */
function unavailable(why: string) {
  return new Response(`retry: ${RETRY_MS}\nevent: unavailable\ndata: ${why}\n\n`, { headers: EVENT_STREAM })
}
