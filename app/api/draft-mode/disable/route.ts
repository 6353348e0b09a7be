import { draftMode } from 'next/headers'
import type { NextRequest } from 'next/server'

/**
 * Leaves draft mode (the preview banner's link) and goes back to the page the editor was on:
 * `?redirect=/path`, else the referring page of this site, else the home page. Never another origin.
 */
export async function GET(request: NextRequest) {
  ;(await draftMode()).disable()
  // A relative Location: the origin Next sees behind a proxy or a custom server may not be the browser's.
  return new Response(null, { status: 303, headers: { Location: returnPath(request), 'Cache-Control': 'private, no-store' } })
}

function returnPath(request: NextRequest): string {
  const asked = request.nextUrl.searchParams.get('redirect')
  if (asked !== null) return /^\/(?![/\\])/.test(asked) ? asked : '/'
  const referrer = request.headers.get('referer')
  if (!referrer) return '/'
  try {
    const url = new URL(referrer)
    return url.host === request.headers.get('host') && !url.pathname.startsWith('/api/') ? `${url.pathname}${url.search}` : '/'
  } catch {
    return '/'
  }
}
