import { describe, expect, it } from 'vitest'
import { readLimitedText } from '@/lib/http/read-limited-text'

/** A request whose body arrives in `chunks` of `size` bytes, counting how many were pulled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  let pulled = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close()
      pulled++
      controller.enqueue(new Uint8Array(size).fill(0x61))
    },
  })
  const request = new Request('http://site.test/api/revalidate', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit)
  return { request, pulled: () => pulled }
}

describe('readLimitedText', () => {
  it('reads a body within the limit', async () => {
    expect(
      await readLimitedText(new Request('http://site.test/', { method: 'POST', body: '{"_type":"x"}' }), 100),
    ).toEqual({ ok: true, text: '{"_type":"x"}' })
    expect(await readLimitedText(new Request('http://site.test/', { method: 'POST' }), 100)).toEqual({
      ok: true,
      text: '',
    })
  })

  it('refuses a declared length beyond the limit without reading a byte', async () => {
    const { request, pulled } = streamed(1000, 1024, { 'Content-Length': String(1000 * 1024) })
    expect(await readLimitedText(request, 4096)).toEqual({ ok: false })
    expect(pulled()).toBe(0)
  })

  it('stops reading a body that goes beyond the limit (no length declared): never more than one chunk past it', async () => {
    const { request, pulled } = streamed(400_000, 1024)
    expect(await readLimitedText(request, 4096)).toEqual({ ok: false })
    expect(pulled()).toBeLessThanOrEqual(6)
  })
})
