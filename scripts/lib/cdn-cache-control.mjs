// How long a CDN in front of the production server may keep what Next.js marks as shared-cacheable
// (static pages, their RSC payloads, the share images, sitemap and robots). Next.js says a year
// (`s-maxage=31536000`): right on Vercel, whose CDN Next purges itself when a publish revalidates a
// page, wrong for any other CDN, which would never see the publish. So a CDN keeps a page a short
// while, then serves it stale while it fetches the new version in the background: after a publish,
// visitors see the edit within CDN_MAX_AGE seconds plus one request, and the origin answers each
// page about once per CDN_MAX_AGE per CDN location. Browsers revalidate every time (a cheap 304).
// Private and no-store responses (draft mode, the inbox, the API) are left as they are.

export const CDN_MAX_AGE = 60
export const STALE_WHILE_REVALIDATE = 24 * 60 * 60

/** Our Cache-Control for the one Next.js sent. */
export function cdnCachePolicy(value) {
  if (typeof value !== 'string' || !/\bs-maxage=/i.test(value) || /\b(private|no-store|no-cache)\b/i.test(value)) return value
  return `public, max-age=0, s-maxage=${CDN_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}`
}

/** Rewrites the Cache-Control of `response` when its headers go out. */
export function cdnCacheControl(response) {
  const writeHead = response.writeHead
  response.writeHead = function cdnWriteHead(statusCode, ...rest) {
    const headers = rest.find((argument) => argument && typeof argument === 'object' && !Array.isArray(argument))
    const given = headers && Object.keys(headers).find((name) => name.toLowerCase() === 'cache-control')
    if (given) headers[given] = cdnCachePolicy(headers[given])
    else if (response.hasHeader('cache-control')) response.setHeader('Cache-Control', cdnCachePolicy(response.getHeader('cache-control')))
    return writeHead.call(response, statusCode, ...rest)
  }
}
