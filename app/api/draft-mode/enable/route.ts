import type { NextRequest } from 'next/server'
import { defineEnableDraftMode } from 'next-sanity/draft-mode'
import { createSanityClient } from '@/lib/sanity/client'
import { previewToken } from '@/lib/sanity/preview-token'

/**
 * The Presentation tool opens previews through here: it writes a short-lived secret into the Content
 * Lake and passes it in the URL; next-sanity checks it there (with a token that reads drafts), turns
 * draft mode on and redirects to the page. A wrong or expired secret is a 401 and no cookie.
 */
export async function GET(request: NextRequest) {
  const token = await previewToken()
  if (!token) return new Response('Draft mode is not configured: set SANITY_API_READ_TOKEN', { status: 501 })
  return defineEnableDraftMode({ client: createSanityClient().withConfig({ token }) }).GET(request)
}
