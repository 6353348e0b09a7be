/**
 * A request's body as text, read up to `limit` bytes: `{ ok: false }` as soon as it declares or
 * delivers more (the stream is then cancelled), so a huge body costs one chunk of memory, not its size.
 */
export async function readLimitedText(
  request: Request,
  limit: number,
): Promise<{ ok: true; text: string } | { ok: false }> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) {
    await request.body?.cancel().catch(() => {})
    return { ok: false }
  }
  if (!request.body) return { ok: true, text: '' }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return { ok: false }
    }
    chunks.push(value)
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') }
}
