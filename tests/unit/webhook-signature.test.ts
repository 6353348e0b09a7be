import { encodeSignatureHeader } from '@sanity/webhook'
import { describe, expect, it } from 'vitest'
import { checkWebhookSignature, WEBHOOK_MAX_AGE_MS } from '@/lib/sanity/webhook-signature'

const secret = 'a-secret-made-for-this-test'
const body = '{"_type":"service"}'
const now = Date.UTC(2026, 0, 15, 12)

describe('checkWebhookSignature (/api/revalidate)', () => {
  it("accepts a fresh signature made as Sanity's webhooks make it (@sanity/webhook)", async () => {
    expect(checkWebhookSignature(body, await encodeSignatureHeader(body, now, secret), secret, now)).toBe('valid')
    expect(checkWebhookSignature(body, await encodeSignatureHeader(body, now - 60_000, secret), secret, now)).toBe(
      'valid',
    )
  })

  it('refuses a signature older than a few minutes, or from the future: a captured request cannot be replayed later', async () => {
    expect(
      checkWebhookSignature(body, await encodeSignatureHeader(body, now - 30 * 24 * 3600_000, secret), secret, now),
    ).toBe('expired')
    expect(
      checkWebhookSignature(body, await encodeSignatureHeader(body, now - WEBHOOK_MAX_AGE_MS - 1, secret), secret, now),
    ).toBe('expired')
    expect(
      checkWebhookSignature(body, await encodeSignatureHeader(body, now + WEBHOOK_MAX_AGE_MS + 1, secret), secret, now),
    ).toBe('expired')
  })

  it('refuses another secret, another body, a moved timestamp, and malformed headers', async () => {
    const header = await encodeSignatureHeader(body, now, secret)
    expect(checkWebhookSignature(body, await encodeSignatureHeader(body, now, 'another secret'), secret, now)).toBe(
      'invalid',
    )
    expect(checkWebhookSignature('{"_type":"other"}', header, secret, now)).toBe('invalid')
    expect(checkWebhookSignature(body, header.replace(`t=${now}`, `t=${now + 1}`), secret, now)).toBe('invalid')
    expect(checkWebhookSignature(body, `${header}x`, secret, now)).toBe('invalid')
    for (const malformed of [null, '', 'v1=abc', `t=${now}`, `t=abc,v1=x`, 'garbage'])
      expect(checkWebhookSignature(body, malformed, secret, now), String(malformed)).toBe('malformed')
  })
})
