import { cookies, draftMode } from 'next/headers'
// Next's own test for the error its redirect() throws (next-sanity answers a valid secret with one).
import { isRedirectError } from 'next/dist/client/components/redirect-error'
import { NextRequest } from 'next/server'
import { defineEnableDraftMode } from 'next-sanity/draft-mode'
import {
  DRAFT_ACCESS_COOKIE,
  draftAccessCookieOptions,
  draftAccessSecret,
  signDraftAccess,
  DRAFT_ACCESS_TTL_MS,
} from '@/lib/security/draft-access-cookie'
import { sameOriginPath } from '@/lib/draft-mode/return-path'
import { CONTENT_DEADLINE_MS, createSanityClient } from '@/lib/sanity/client'
import { explainContentLakeFailure } from '@/lib/sanity/content-lake-failure'
import { sanityServerApiUrl } from '@/lib/sanity/env'
import { previewToken } from '@/lib/sanity/preview-token'

const PATHNAME_PARAM = 'sanity-preview-pathname'

/**
 * The Presentation tool opens previews through here: it writes a short-lived secret into the Content
 * Lake and passes it in the URL; next-sanity checks it there (with a token that reads drafts), turns
 * draft mode on and redirects to the page. We add our signed, expiring draft-access cookie to that
 * redirect, and keep the page it goes to on this site. A wrong or expired secret is a 401 and no cookie.
 */
export async function GET(request: NextRequest) {
  const token = previewToken()
  if (!token) {
    // Said in the preview frame, to an editor (in the Studio's language), and to the log, to the operator.
    console.error('[draft mode] previews are off: set SANITY_API_READ_TOKEN (a Viewer token) to turn them on')
    return new Response(
      "L'aperçu n'est pas activé sur ce site : il lui manque un jeton de lecture des brouillons (SANITY_API_READ_TOKEN). Prévenez la personne qui administre le site.",
      { status: 501, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } },
    )
  }
  const url = new URL(request.url)
  const asked = url.searchParams.get(PATHNAME_PARAM)
  const host = request.headers.get('host') ?? request.nextUrl.host
  if (asked !== null) url.searchParams.set(PATHNAME_PARAM, sameOriginPath(asked, host) ?? '/')
  const enable = defineEnableDraftMode({ client: createSanityClient().withConfig({ token }) })
  try {
    return await enable.GET(new NextRequest(url, { headers: request.headers }))
  } catch (error) {
    if (!isRedirectError(error)) return contentLakeUnavailable(error)
    if ((await draftMode()).isEnabled) {
      const now = Date.now()
      const secure =
        request.nextUrl.protocol === 'https:' ||
        request.headers.get('x-forwarded-proto')?.split(',')[0].trim() === 'https'
      ;(await cookies()).set(
        DRAFT_ACCESS_COOKIE,
        signDraftAccess(draftAccessSecret(), now),
        draftAccessCookieOptions({ secure, expires: now + DRAFT_ACCESS_TTL_MS }),
      )
    }
    throw error
  }
}

/**
 * The secret could not be checked: the Content Lake is down or hangs past its deadline (try again), or
 * it answered and refused the site's read (its configuration: trying again will not help). Said to the
 * editor in the preview frame, in the Studio's language, and to the log without the client's error (it
 * holds the token), naming the variable to check.
 */
function contentLakeUnavailable(error: unknown): Response {
  const { error: explained, misconfigured } = explainContentLakeFailure(error, sanityServerApiUrl, CONTENT_DEADLINE_MS)
  console.error(`[draft mode] ${explained.message}`)
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }
  if (misconfigured)
    return new Response(
      "L'aperçu ne peut pas s'ouvrir : l'API de contenu refuse la lecture du site (sa configuration). Prévenez la personne qui administre le site.",
      { status: 502, headers },
    )
  return new Response("L'aperçu ne peut pas s'ouvrir : l'API de contenu ne répond pas. Réessayez dans un instant.", {
    status: 503,
    headers: { ...headers, 'Retry-After': '5' },
  })
}
