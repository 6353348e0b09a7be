import { createHmac, timingSafeEqual } from 'node:crypto'

/*
 * The signature of a Sanity GROQ webhook (`sanity-webhook-signature: t=<ms>,v1=<sig>`, the format of
 * @sanity/webhook): sig is the base64url HMAC-SHA256 of `<t>.<body>` with the webhook's secret. Checked
 * here rather than with @sanity/webhook, which accepts a signature of any age (a captured request
 * could be replayed for ever) and compares with `!==`.
 */

export const WEBHOOK_SIGNATURE_HEADER = 'sanity-webhook-signature'

/** How far a signature's time may be from ours (either way): Sanity signs each delivery when it sends it. */
export const WEBHOOK_MAX_AGE_MS = 5 * 60_000

export type SignatureCheck = 'valid' | 'invalid' | 'expired' | 'malformed'

export function checkWebhookSignature(
  body: string,
  header: string | null,
  secret: string,
  now = Date.now(),
): SignatureCheck {
  const match = /^t=(\d{1,16})[, ]+v1=([A-Za-z0-9_-]+)$/.exec(header?.trim() ?? '')
  if (!match) return 'malformed'
  const timestamp = Number(match[1])
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('base64url'))
  const presented = Buffer.from(match[2])
  // The signature first: a forged request learns nothing from the answer about the time window.
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return 'invalid'
  return Math.abs(now - timestamp) <= WEBHOOK_MAX_AGE_MS ? 'valid' : 'expired'
}
