import type { IncomingMessage } from 'node:http'
import { draftAccessFromCookieHeader, draftAccessSecret } from '../lib/security/draft-access-cookie.ts'

/*
 * Draft mode reaches Next.js only for an editor. Next's bypass cookie (`__prerender_bypass`) holds one
 * value per build, and Next.js (and next.config.ts's rule that gives such requests the editors' looser
 * policy) only checks that it is there. So, before Next.js sees a request, the bypass cookie is kept
 * only when it is this build's AND the request carries a valid draft-access cookie (signed, expiring:
 * lib/security/draft-access-cookie.ts, the check the pages make too); otherwise it is removed from the
 * request, and the visitor gets the static page and the site's policy, as without it. The server
 * therefore needs no policy of its own: the one Next.js sends is always the right one for the request.
 */

const BYPASS = '__prerender_bypass'
const isBypass = (cookie: string) => cookie.startsWith(`${BYPASS}=`)

/** Returns the check to run on each request; `secret` is the draft-access key (the pages' own, by default). */
export function draftModeGate(
  previewModeId: string,
  secret: () => string = draftAccessSecret,
): (request: IncomingMessage) => void {
  const valid = `${BYPASS}=${previewModeId}`
  return (request) => {
    const header = request.headers.cookie
    if (!header || !header.includes(`${BYPASS}=`)) return
    const cookies = header.split(/;\s*/)
    const others = cookies.filter((cookie) => !isBypass(cookie))
    const editor = cookies.includes(valid) && draftAccessFromCookieHeader(header, secret())
    // An editor keeps this build's cookie, once; anyone else keeps none.
    const kept = editor ? [...others, valid] : others
    if (kept.length === 0) delete request.headers.cookie
    else request.headers.cookie = kept.join('; ')
  }
}
