/*
 * Where the draft-mode routes may send a browser: a page of this site, never another. A candidate is
 * resolved as a browser resolves a Location header (tabs and newlines dropped, `\` read as `/`, `.`
 * and `..` applied) and kept only if it stays on the site's host; what is sent is the normalised
 * path, query and fragment: percent-encoded ASCII, which a header can always carry.
 */

/**
 * The normalised `path?query#fragment` of `target` (a path or an absolute URL) when it names a page on
 * `host` (the request's Host), or null.
 */
export function sameOriginPath(target: string, host: string): string | null {
  let site: URL
  let url: URL
  try {
    site = new URL(`http://${host}/`)
    url = new URL(target, site)
  } catch {
    return null
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.host !== site.host || url.username || url.password)
    return null
  const path = `${url.pathname}${url.search}${url.hash}`
  // Sent as a Location, the path is resolved again: `//evil.example/x` (from `/.//evil.example/x`, or a
  // referrer's path) would then name a host. Keep only a path that resolves to itself.
  const again = new URL(path, site)
  return again.host === site.host && `${again.pathname}${again.search}${again.hash}` === path ? path : null
}

/**
 * Where /api/draft-mode/disable sends the editor back to: `?redirect=`, else the referring page of this
 * site (not an API route), else the home page.
 */
export function disableReturnPath({
  redirect,
  referrer,
  host,
}: {
  redirect: string | null
  referrer: string | null
  host: string
}): string {
  if (redirect !== null) return sameOriginPath(redirect, host) ?? '/'
  if (!referrer) return '/'
  const path = sameOriginPath(referrer, host)
  return path && !path.startsWith('/api/') ? path : '/'
}
