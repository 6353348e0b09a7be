import { inDraftMode, type Stage } from './stage.ts'

/*
 * How long a CDN in front of the production server may keep what Next.js marks as shared-cacheable
 * (static pages, their RSC payloads, the share images, sitemap and robots). Next.js says a year
 * (`s-maxage=31536000`): right on Vercel, whose CDN Next purges itself when a publish revalidates a
 * page, wrong for any other CDN, which would never see the publish. So a CDN keeps a page a short
 * while, then serves it stale while it fetches the new version in the background: after a publish,
 * visitors see the edit within CDN_MAX_AGE seconds plus one request, and the origin answers each
 * page about once per CDN_MAX_AGE per CDN location; should the origin fail, it keeps serving what it
 * has (stale-if-error). Browsers revalidate every time (a cheap 304).
 * Private and no-store responses (draft mode, the inbox, the API) are left as they are.
 *
 * A request Next.js could read its draft-mode cookie from may get the editors' policy (next.config.ts's
 * `has` rule matches on the cookie's presence, whatever its value): whatever Next marked shareable is
 * then `private, no-store`, so no CDN keeps it for the visitors who come after (the memory cache never
 * keeps it either). The draft gate lets that cookie through to editors only (draft-gate.ts), whose
 * pages Next already marks private; this holds should anything else ever reach Next with it.
 */

export const CDN_MAX_AGE = 60
export const STALE_WHILE_REVALIDATE = 24 * 60 * 60
/** RFC 5861: a CDN keeps serving what it has for a day when the origin fails (5xx) or cannot be reached. */
export const STALE_IF_ERROR = 24 * 60 * 60

export const EDITORS_CACHE_CONTROL = 'private, no-store'

/** Our Cache-Control for the one Next.js sent (anything else is returned as it came); `draftMode`: the
 *  request carried Next's draft-mode cookie. */
export function cdnCachePolicy<T>(value: T, { draftMode = false } = {}): T | string {
  if (typeof value !== 'string' || !/\bs-maxage=/i.test(value) || /\b(private|no-store|no-cache)\b/i.test(value))
    return value
  if (draftMode) return EDITORS_CACHE_CONTROL
  return `public, max-age=0, s-maxage=${CDN_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}, stale-if-error=${STALE_IF_ERROR}`
}

/** Headers only: every response, 304s and HEADs included, says the same to a CDN. */
export const cdnCacheStage: Stage = {
  name: 'CDN cache headers',
  wantsBody: () => false,
  apply(response, request) {
    const value = response.headers['cache-control']
    if (value !== undefined)
      response.headers['cache-control'] = cdnCachePolicy(value, { draftMode: inDraftMode(request) })
  },
}
