import { parseCookie } from 'next/dist/compiled/@edge-runtime/cookies/index.js'
import { getCookieParser } from 'next/dist/server/api-utils/get-cookie-parser.js'

/*
 * A Cookie request header read the way Next.js reads it, with Next's own code: route matching (the
 * `has: [{ type: 'cookie' }]` rules of next.config.ts) with getCookieParser, draftMode() and cookies()
 * with RequestCookies; the two readings differ (trimming, quoting, which duplicate wins). Every check of
 * a cookie on the server goes through here. Why, and how the two differ: docs/decisions.md, « Reading
 * cookies as Next.js does ». Both modules ship with every `next` install the server runs with;
 * server/container-imports.test.ts fails should an upgrade move them.
 */

/** Next's draft-mode cookie (COOKIE_NAME_PRERENDER_BYPASS of next/dist/server/api-utils). */
export const PRERENDER_BYPASS_COOKIE = '__prerender_bypass'

/** The value route matching (`has: [{ type: 'cookie', key: name }]`) reads, or undefined. A rule without
 *  a `value` matches when this is neither undefined nor ''. */
export function routeCookie(header: string | undefined, name: string): string | undefined {
  return header ? getCookieParser({ cookie: header })()[name] : undefined
}

/** The value `(await cookies()).get(name)?.value` and draftMode() read, or undefined. */
export function requestCookie(header: string | undefined, name: string): string | undefined {
  return header ? parseCookie(header).get(name) : undefined
}

/** The pairs of a header as both readings split it (the one step they share, written out here). */
export function cookiePairs(header: string): string[] {
  return header.split(/; */)
}

/**
 * The name a pair may be read under, by either reading: what comes before its first `=` (the whole pair
 * when it has none), trimmed. Route matching reads exactly this name; RequestCookies reads it untrimmed,
 * which equals it or is no name this one is not.
 */
export function pairName(pair: string): string {
  const equals = pair.indexOf('=')
  return (equals === -1 ? pair : pair.slice(0, equals)).trim()
}

/** Whether Next could read a cookie `name`, with any value ('' included), from this header. */
export function mayReadCookie(header: string | undefined, name: string): boolean {
  if (!header) return false
  return (
    routeCookie(header, name) !== undefined ||
    requestCookie(header, name) !== undefined ||
    cookiePairs(header).some((pair) => pairName(pair) === name)
  )
}

/** The header without any pair Next could read as `name`, nor empty ones (which neither reading reads):
 *  the others, joined as a browser joins them. */
export function withoutCookie(header: string, name: string): string {
  return cookiePairs(header)
    .filter((pair) => pair !== '' && pairName(pair) !== name)
    .join('; ')
}
