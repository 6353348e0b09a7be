import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { requestCookie } from './request-cookies.ts'

/*
 * Our half of draft mode. Next's draft-mode cookie (`__prerender_bypass`) holds one value per build:
 * whoever once had it could read drafts until the next deploy. Draft content is therefore shown only
 * when this cookie also holds: `<expires ms>.<nonce>.<HMAC-SHA256(secret, expires.nonce)>`, issued by
 * /api/draft-mode/enable after the Presentation tool's secret checked out, valid a few hours, cleared
 * by /api/draft-mode/disable. Plain functions over strings: the pages (lib/draft-mode/draft-access.ts)
 * and the production server (server/draft-gate.ts, which lets Next see its draft-mode cookie only with
 * a valid one of ours) both check it; the server loads this module by Node's type stripping from a
 * container image that holds only server/, lib/security/ and Next's standalone output, hence Node
 * built-ins and `next` only (the header is read by Next's own code: request-cookies.ts).
 */

export const DRAFT_ACCESS_COOKIE = 'plume-draft-access'

/** How long draft access lasts after the Presentation tool (or a preview link) last enabled it. */
export const DRAFT_ACCESS_TTL_MS = 4 * 3600_000

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`draft-access:${payload}`).digest('base64url')

export function signDraftAccess(secret: string, now = Date.now(), ttlMs = DRAFT_ACCESS_TTL_MS): string {
  const payload = `${now + ttlMs}.${randomBytes(9).toString('base64url')}`
  return `${payload}.${mac(secret, payload)}`
}

/** When the access `value` grants ends (ms since the epoch), or null if it is forged, malformed or over. */
export function draftAccessExpiry(value: string | undefined, secret: string, now = Date.now()): number | null {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '')
  if (!match) return null
  const expected = Buffer.from(mac(secret, `${match[1]}.${match[2]}`))
  const presented = Buffer.from(match[3])
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null
  const expires = Number(match[1])
  return now < expires ? expires : null
}

/**
 * The same check on a raw `Cookie` request header (the production server sees no parsed cookies), on the
 * value the pages check: the one `cookies()` reads (lib/draft-mode/draft-access.ts), so that the server
 * never lets draft mode through for a request whose pages would refuse it, nor the reverse.
 */
export function draftAccessFromCookieHeader(header: string | undefined, secret: string, now = Date.now()): boolean {
  return draftAccessExpiry(requestCookie(header, DRAFT_ACCESS_COOKIE), secret, now) !== null
}

/**
 * HttpOnly (no script reads it), Secure over https, SameSite=Lax: the Presentation tool frames the site
 * from /studio on the same origin (and `frame-ancestors 'self'` allows no other), so the frame's
 * requests are same-site and None is never needed.
 */
export function draftAccessCookieOptions({ secure, expires }: { secure: boolean; expires: number }) {
  return { httpOnly: true, secure, sameSite: 'lax', path: '/', expires: new Date(expires) } as const
}

const PROCESS_SECRET = Symbol.for('plume.draftAccessSecret')

/**
 * The secret draft access is signed with: DRAFT_MODE_SECRET when set; otherwise, whenever
 * SANITY_API_READ_TOKEN is set, a key derived from it (server-only, the same on every instance of the
 * site); otherwise a random one per server process (a restart ends draft access: open the preview
 * again). Offline the token is normally unset (the local Content Lake hands out its own viewer token);
 * set, it is a server-only secret whichever Sanity it is for, so the rule need not ask which one is
 * configured, and the production server calls it without lib/backends.ts. Kept on globalThis: the route handlers, the pages and the
 * production server load their own copies of this module in one process.
 */
export function draftAccessSecret(env: Record<string, string | undefined> = process.env): string {
  if (env.DRAFT_MODE_SECRET) return env.DRAFT_MODE_SECRET
  if (env.SANITY_API_READ_TOKEN) {
    return createHmac('sha256', env.SANITY_API_READ_TOKEN).update('plume draft-access cookie key').digest('base64url')
  }
  const store = globalThis as { [PROCESS_SECRET]?: string }
  store[PROCESS_SECRET] ??= randomBytes(32).toString('base64url')
  return store[PROCESS_SECRET]
}
