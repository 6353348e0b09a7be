import sharp from 'sharp'

/**
 * Uploads a width×height JPEG to a Content Lake as an editor would, and returns its asset URL and size.
 * Noise, not a flat colour: a photograph's entropy, so that decoding and encoding cost what they would.
 */
export async function uploadPhoto(
  origin: string,
  token: string,
  { width, height }: { width: number; height: number },
): Promise<{ url: string; bytes: number }> {
  const photo = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
  const upload = await fetch(`${origin}/v2025-02-19/assets/images/production?filename=photo.jpg`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/jpeg' },
    body: new Uint8Array(photo),
  })
  const { document } = (await upload.json()) as { document: { url: string } }
  return { url: document.url, bytes: photo.length }
}
