import { randomBytes } from 'node:crypto'

/*
 * The session ids of the Studio's sign-in, as hosted Sanity hands them out: the login page redirects
 * the browser to `<origin>#sid=<id>`, and the Studio trades the id for a token at `/auth/fetch`. Each
 * id is good once and for a short while; only the newest few are kept, so a client that asks for many
 * and never trades them grows nothing.
 */

/** How long a session id may wait for its exchange. */
export const SIGN_IN_TTL_MS = 2 * 60_000
/** Pending ids kept at most; past it, the oldest is dropped. */
export const MAX_PENDING_SIGN_INS = 100

export class SignInSessions {
  /** Session id → when it expires (ms), in order of issue. */
  private readonly pending = new Map<string, number>()
  private readonly now: () => number

  constructor(now: () => number = Date.now) {
    this.now = now
  }

  /** A fresh session id: 32 random bytes, base64url (43 characters, none of them `&`). */
  issue(): string {
    this.dropExpired()
    while (this.pending.size >= MAX_PENDING_SIGN_INS) this.pending.delete(this.pending.keys().next().value!)
    const sid = randomBytes(32).toString('base64url')
    this.pending.set(sid, this.now() + SIGN_IN_TTL_MS)
    return sid
  }

  /** True, once, for an id issued here less than SIGN_IN_TTL_MS ago; the id is gone afterwards. */
  redeem(sid: string): boolean {
    const expires = this.pending.get(sid)
    this.pending.delete(sid)
    return expires !== undefined && expires > this.now()
  }

  get size(): number {
    this.dropExpired()
    return this.pending.size
  }

  private dropExpired() {
    const now = this.now()
    for (const [sid, expires] of this.pending) if (expires <= now) this.pending.delete(sid)
  }
}
