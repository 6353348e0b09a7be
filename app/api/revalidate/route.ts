import { revalidateTag } from 'next/cache'
import type { NextRequest } from 'next/server'
import { readLimitedText } from '@/lib/http/read-limited-text'
import { isSanityHosted } from '@/lib/sanity/env'
import { localSiteCredentials } from '@/lib/sanity/local-site-credentials'
import { checkWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '@/lib/sanity/webhook-signature'

/** The webhook's projection is `{_type}`: a few dozen bytes. Anything much larger is not ours. */
const MAX_BODY_BYTES = 16 * 1024

const refusals = {
  malformed: 'Missing or malformed sanity-webhook-signature header',
  invalid: 'Invalid signature',
  expired: 'Signature expired: its timestamp is more than 5 minutes from now',
} as const

/**
 * Sanity webhook target (hosted: sanity.io/manage → API → Webhooks, projection `{_type}`; local: the
 * local Content Lake calls it on every published change): the pages that show that document type
 * expire at once, so the next visit renders them afresh from the Content Lake. Signed requests only,
 * signed within the last minutes (see webhook-signature.ts), with a secret that is never a default:
 * SANITY_REVALIDATE_SECRET, or offline the one the local Content Lake made for its data folder.
 */
export async function POST(request: NextRequest) {
  const secret = process.env.SANITY_REVALIDATE_SECRET || (await localSiteCredentials())?.webhookSecret
  if (!secret) {
    return isSanityHosted
      ? Response.json({ error: 'SANITY_REVALIDATE_SECRET is not set: the webhook is refused' }, { status: 501 })
      : Response.json(
          { error: 'The local Content Lake, which holds the webhook secret, cannot be reached' },
          { status: 503 },
        )
  }
  const body = await readLimitedText(request, MAX_BODY_BYTES)
  if (!body.ok) return Response.json({ error: `The body is larger than ${MAX_BODY_BYTES} bytes` }, { status: 413 })
  const check = checkWebhookSignature(body.text, request.headers.get(WEBHOOK_SIGNATURE_HEADER), secret)
  if (check !== 'valid') return Response.json({ error: refusals[check] }, { status: 401 })

  let type: unknown
  try {
    type = body.text.trim() ? (JSON.parse(body.text) as { _type?: unknown } | null)?._type : undefined
  } catch {
    return Response.json({ error: 'The body is not JSON' }, { status: 400 })
  }
  // The hosted Content Lake is eventually consistent: wait 3 s (as next-sanity's parseBody does) before
  // the pages re-read it. The local one has applied a change before it sends the webhook.
  if (isSanityHosted) await new Promise((resolve) => setTimeout(resolve, 3000))
  const tags = typeof type === 'string' && type ? [type] : ['sanity']
  // `expire: 0` rather than the stale-while-revalidate 'max': the editor's next look shows the edit.
  for (const tag of tags) revalidateTag(tag, { expire: 0 })
  return Response.json({ revalidated: tags })
}
