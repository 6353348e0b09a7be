/** Headers sent with every response besides the Content-Security-Policy (content-security-policy.ts).
 *  The Studio frames the site on the same origin, so framing is limited to ourselves, not forbidden. */
export const securityHeaders = [
  { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains; preload' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
  // No other site may hold a reference to our windows, nor embed our responses (images, scripts, JSON).
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
  {
    key: 'Permissions-Policy',
    value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  },
]

/** The policy of an answer that is never a document (a file, a plain-text error): it needs none of the
 *  site's sources, so nothing at all is allowed, and nothing may frame it. */
export const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'"

/*
 * The build's own files (/_next/static: scripts, stylesheets, fonts, images) are never a document, so the
 * headers that only a document reads (framing, the window's opener, the features it may use, the page's
 * policy with its hashes and services) would be ~700 bytes of every file's answer, a page's scripts
 * alone a dozen of them: over HTTP/1.1 that is 8 KiB before a phone runs anything. They keep what a file
 * reads (nosniff, who may embed it), what any answer teaches the browser (HSTS, the referrer), and a
 * policy that allows nothing, which is what a script or a font needs of its own.
 */
export const fileHeaders = [
  ...securityHeaders.filter(({ key }) =>
    ['Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Cross-Origin-Resource-Policy'].includes(
      key,
    ),
  ),
  { key: 'Content-Security-Policy', value: NON_DOCUMENT_POLICY },
]
