import { NextResponse, type NextRequest } from 'next/server'
import { BAD_ADDRESS_TEXT, malformedRequestTarget } from './server/target-form'

/**
 * A path whose percent-encoding does not decode (`/%ff`, a link cut in the middle of a character):
 * Next.js's router fails on it, and `next start` and the standalone folder's server.js then answer a
 * bare « Internal Server Error ». Our own server turns such a path away before Next.js does
 * (server/http-server.ts); this says the same, in the site's words, whichever way the build is served.
 * Only paths holding a `%` reach it (config.matcher): no other request pays for it.
 */
export function proxy(request: NextRequest) {
  const problem = malformedRequestTarget(request.nextUrl.pathname)
  if (!problem) return NextResponse.next()
  return new NextResponse(`${BAD_ADDRESS_TEXT}\nBad Request: ${problem}\n`, {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

export const config = {
  matcher: ['/(.*%.*)'],
}
