import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { SEED_IMAGES_DIR } from '@/lib/sanity/seed-dataset'

/*
 * Serves the seed dataset's images offline (the Content Lake's CDN does it when Sanity is
 * configured). Only files that exist in studio/seed/images are known; they are prerendered.
 */
export const dynamic = 'force-static'
export const dynamicParams = false

const SAFE_NAME = /^[a-z0-9][a-z0-9-]*\.svg$/

export function generateStaticParams() {
  return readdirSync(SEED_IMAGES_DIR)
    .filter((file) => SAFE_NAME.test(file))
    .map((file) => ({ file }))
}

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params
  if (!SAFE_NAME.test(file)) return new Response('Not found', { status: 404 })
  const body = readFileSync(path.join(SEED_IMAGES_DIR, file))
  return new Response(body, {
    headers: {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  })
}
