import { revalidateTag } from 'next/cache'
import { after, type NextRequest } from 'next/server'
import { warmUp, warmUpOrigin } from '@/lib/cache/warm-up'
import { readLimitedText } from '@/lib/http/read-limited-text'
import { checkWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '@/lib/sanity/webhook-signature'

/** The webhook's projection is `{_type}`: a few dozen bytes. Anything much larger is not ours. */
const MAX_BODY_BYTES = 16 * 1024

const refusals = {
  malformed: 'Missing or malformed sanity-webhook-signature header',
  invalid: 'Invalid signature',
  expired: 'Signature expired: its timestamp is more than 5 minutes from now',
} as const

/**
 * How long to wait before the pages re-read the Content Lake: Sanity's is eventually consistent, 3 s is
 * what next-sanity's parseBody waits. SANITY_REVALIDATE_DELAY_MS sets it (0 to 10 000 ms): the local
 * Content Lake, which applies a change before it sends the webhook, is started with 0.
 */
function revalidateDelayMs(): number {
  const value = Number(process.env.SANITY_REVALIDATE_DELAY_MS || 3000)
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 10_000) : 3000
}

/**
 * Sanity webhook target (sanity.io/manage → API → Webhooks, projection `{_type}`; the local Content
 * Lake calls it on every published change): the pages that show that document type become stale, and
 * each public page is asked for once, after the answer (lib/cache/warm-up.ts), so that they render
 * afresh from the Content Lake before a visitor comes. Stale rather than expired: a page whose new
 * render fails (the Content Lake down or past its deadline) keeps its last good version, and shows the
 * new words as soon as a render succeeds. Signed requests only, signed within the
 * last minutes (see webhook-signature.ts), with SANITY_REVALIDATE_SECRET, which is never a default.
 */
export async function POST(request: NextRequest) {
  const secret = process.env.SANITY_REVALIDATE_SECRET
  if (!secret) {
    return Response.json({ error: 'SANITY_REVALIDATE_SECRET is not set: the webhook is refused' }, { status: 501 })
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
  const delay = revalidateDelayMs()
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  const tags = typeof type === 'string' && type ? [type] : ['sanity']
  for (const tag of tags) revalidateTag(tag, 'max')
  const origin = warmUpOrigin(request.url)
  if (origin)
    after(async () => {
      const { failed } = await warmUp(origin)
      if (failed.length)
        console.error(`[revalidate] warming up after the publish, these pages did not answer: ${failed.join(', ')}`)
    })
  return Response.json({ revalidated: tags })
}
