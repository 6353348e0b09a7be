import { revalidateTag } from 'next/cache'
import type { NextRequest } from 'next/server'
import { parseBody } from 'next-sanity/webhook'
import { revalidateSecret } from '@/lib/backends'
import { isSanityHosted } from '@/lib/sanity/env'

type WebhookPayload = { _type?: string }

/**
 * Sanity webhook target (hosted: sanity.io/manage → API → Webhooks, projection `{_type}`; local: the
 * local Content Lake calls it on every published change): the pages that show that document type
 * expire at once, so the next visit renders them afresh from the Content Lake.
 */
export async function POST(request: NextRequest) {
  // Offline, the local Content Lake signs with its well-known default unless a secret is set for both.
  const secret = revalidateSecret()
  if (!secret) return Response.json({ error: 'SANITY_REVALIDATE_SECRET is not set' }, { status: 501 })
  try {
    // The hosted Content Lake is eventually consistent: parseBody waits 3 s before the pages re-read it.
    // The local one has applied a change before it sends the webhook, so the pages re-read at once.
    const { isValidSignature, body } = await parseBody<WebhookPayload>(request, secret, isSanityHosted)
    if (!isValidSignature) return Response.json({ error: 'Invalid signature' }, { status: 401 })
    const tags = body?._type ? [body._type] : ['sanity']
    // `expire: 0` rather than the stale-while-revalidate 'max': the editor's next look shows the edit.
    for (const tag of tags) revalidateTag(tag, { expire: 0 })
    return Response.json({ revalidated: tags })
  } catch {
    return Response.json({ error: 'Invalid request' }, { status: 400 })
  }
}
