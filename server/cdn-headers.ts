import type { Stage } from './stage.ts'

/*
 * How long a CDN in front of the production server may keep what Next.js marks as shared-cacheable
 * (static pages, their RSC payloads, the share images, sitemap and robots). Next.js says a year
 * (`s-maxage=31536000`): right on Vercel, whose CDN Next purges itself when a publish revalidates a
 * page, wrong for any other CDN, which would never see the publish. So a CDN keeps a page a short
 * while, then serves it stale while it fetches the new version in the background: after a publish,
 * visitors see the edit within CDN_MAX_AGE seconds plus one request, and the origin answers each
 * page about once per CDN_MAX_AGE per CDN location. Browsers revalidate every time (a cheap 304).
 * Private and no-store responses (draft mode, the inbox, the API) are left as they are.
 */

export const CDN_MAX_AGE = 60
export const STALE_WHILE_REVALIDATE = 24 * 60 * 60

/** Our Cache-Control for the one Next.js sent (anything else is returned as it came). */
export function cdnCachePolicy<T>(value: T): T | string {
  if (typeof value !== 'string' || !/\bs-maxage=/i.test(value) || /\b(private|no-store|no-cache)\b/i.test(value))
    return value
  return `public, max-age=0, s-maxage=${CDN_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}`
}

/** Headers only: every response, 304s and HEADs included, says the same to a CDN. */
export const cdnCacheStage: Stage = {
  name: 'CDN cache headers',
  wantsBody: () => false,
  apply(response) {
    const value = response.headers['cache-control']
    if (value !== undefined) response.headers['cache-control'] = cdnCachePolicy(value)
  },
}
