import { cookies, draftMode } from 'next/headers'
import type { NextRequest } from 'next/server'
import { DRAFT_ACCESS_COOKIE } from '@/lib/security/draft-access-cookie'
import { disableReturnPath } from '@/lib/draft-mode/return-path'

/**
 * Leaves draft mode (the preview banner's link: Next's cookie and our draft-access one) and goes back
 * to the page the editor was on: `?redirect=/path`, else the referring page of this site, else the
 * home page. Never another origin.
 */
export async function GET(request: NextRequest) {
  ;(await draftMode()).disable()
  ;(await cookies()).delete(DRAFT_ACCESS_COOKIE)
  const location = disableReturnPath({
    redirect: request.nextUrl.searchParams.get('redirect'),
    referrer: request.headers.get('referer'),
    host: request.headers.get('host') ?? request.nextUrl.host,
  })
  // A relative Location: the origin Next sees behind a proxy or a custom server may not be the browser's.
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'private, no-store' } })
}
