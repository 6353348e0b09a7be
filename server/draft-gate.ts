import type { IncomingMessage } from 'node:http'
import { draftAccessFromCookieHeader, draftAccessSecret } from '../lib/security/draft-access-cookie.ts'
import {
  cookiePairs,
  mayReadCookie,
  pairName,
  PRERENDER_BYPASS_COOKIE as BYPASS,
  requestCookie,
  routeCookie,
  withoutCookie,
} from '../lib/security/request-cookies.ts'

/*
 * Draft mode reaches Next.js only for an editor. Next's bypass cookie (`__prerender_bypass`) holds one
 * value per build, and next.config.ts's rule that gives such requests the editors' looser policy only
 * checks that it is there. So, before Next.js sees a request, every pair Next could read as that cookie
 * (by either of its readings: lib/security/request-cookies.ts; ` __prerender_bypass =x`, a quoted
 * value, the name twice) is removed, unless the request carries this build's value AND a valid
 * draft-access cookie (signed, expiring: lib/security/draft-access-cookie.ts, the check the pages make
 * too): an editor's request then reaches Next with this build's cookie, once, as the browser wrote it.
 * Anyone else gets the static page and the site's policy, as without it. The server therefore needs no
 * policy of its own: the one Next.js sends is always the right one for the request.
 */

/** Returns the check to run on each request; `secret` is the draft-access key (the pages' own, by default). */
export function draftModeGate(
  previewModeId: string,
  secret: () => string = draftAccessSecret,
): (request: IncomingMessage) => void {
  const valid = `${BYPASS}=${previewModeId}`
  return (request) => {
    const header = request.headers.cookie
    if (!header || !mayReadCookie(header, BYPASS)) return
    // This build's value in any pair read as the cookie, by either reading (a quoted one included).
    const presented = cookiePairs(header).some(
      (pair) =>
        pairName(pair) === BYPASS &&
        (routeCookie(pair, BYPASS) === previewModeId || requestCookie(pair, BYPASS) === previewModeId),
    )
    const editor = presented && draftAccessFromCookieHeader(header, secret())
    const kept = [withoutCookie(header, BYPASS), editor ? valid : ''].filter(Boolean).join('; ')
    // What Next will read, checked with its own code: should a Next upgrade ever read a pair under a
    // name the removal above did not expect, the request goes on with no cookie at all.
    const expected = editor ? previewModeId : undefined
    const safe = routeCookie(kept, BYPASS) === expected && requestCookie(kept, BYPASS) === expected
    if (kept && safe) request.headers.cookie = kept
    else delete request.headers.cookie
  }
}
