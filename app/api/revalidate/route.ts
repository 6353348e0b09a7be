import { revalidateTag } from 'next/cache'
import type { NextRequest } from 'next/server'
import { parseBody } from 'next-sanity/webhook'

type WebhookPayload = { _type?: string }

/**
 * Sanity webhook target (configured in sanity.io/manage → API → Webhooks, projection `{_type}`):
 * a published change refreshes the pages that show that document type, within seconds.
 */
export async function POST(request: NextRequest) {
  const secret = process.env.SANITY_REVALIDATE_SECRET
  if (!secret) return Response.json({ error: 'SANITY_REVALIDATE_SECRET is not set' }, { status: 501 })
  try {
    const { isValidSignature, body } = await parseBody<WebhookPayload>(request, secret, true)
    if (!isValidSignature) return Response.json({ error: 'Invalid signature' }, { status: 401 })
    const tags = body?._type ? [body._type] : ['sanity']
    for (const tag of tags) revalidateTag(tag, 'max')
    return Response.json({ revalidated: tags })
  } catch {
    return Response.json({ error: 'Invalid request' }, { status: 400 })
  }
}
