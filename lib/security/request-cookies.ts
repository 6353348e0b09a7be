import { parseCookie } from 'next/dist/compiled/@edge-runtime/cookies/index.js'
import { getCookieParser } from 'next/dist/server/api-utils/get-cookie-parser.js'

/*
 * A Cookie request header read the way Next.js reads it, with Next's own code. Next has two readings,
 * and they differ:
 * - route matching: next.config.ts's `has: [{ type: 'cookie' }]` rules (the one that gives editors their
 *   policy) read cookies with getCookieParser (next/dist/server/api-utils/get-cookie-parser.js, from
 *   matchHas in next/dist/shared/lib/router/utils/prepare-destination.js), the compiled `cookie`
 *   package's parse: pairs split on `; *`, names and values trimmed (String.prototype.trim: tabs and
 *   no-break spaces too), a value that starts with `"` unquoted, URI-decoded when it decodes, the FIRST
 *   pair of a name wins, a pair without `=` skipped;
 * - draftMode() and cookies() (DraftModeProvider and tryGetPreviewData, next/dist/server/async-storage
 *   and api-utils/node) read them with RequestCookies (next/dist/compiled/@edge-runtime/cookies'
 *   parseCookie): pairs split on `; *`, names NOT trimmed, values neither trimmed nor unquoted,
 *   URI-decoded (a pair whose value does not decode is skipped), the LAST pair of a name wins, a pair
 *   without `=` read as that name with the value 'true'.
 * Reading a header by hand (`startsWith('__prerender_bypass=')`) missed ` __prerender_bypass =x`, which
 * route matching reads as Next's draft-mode cookie: the editors' policy went to anyone who sent it, and
 * the shared cache kept it for everybody. Every check of a cookie on the server goes through here.
 *
 * Both modules are plain CommonJS files of every `next` install the server runs with (a checkout, and
 * the standalone folder of the container image, whose trace holds them because Next's server requires
 * them); neither reads the environment when it loads, so importing them before server/main.ts sets
 * NODE_ENV changes nothing. Should a Next upgrade move them, the server fails to start (and
 * server/container-imports.test.ts says so), rather than read cookies differently from Next.
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
