/**
 * Failed sign-in counting per client address and per email, like hosted Supabase's auth rate limits:
 * past the limit, sign-in answers 429 over_request_rate_limit until the window has passed. In memory:
 * a restart forgets, which is acceptable for a local server (hosted Supabase enforces its own).
 */
export type ThrottleOptions = { maxPerEmail: number; maxPerAddress: number; windowMs: number }

export const DEFAULT_THROTTLE: ThrottleOptions = { maxPerEmail: 5, maxPerAddress: 20, windowMs: 15 * 60_000 }

export function createLoginThrottle(options: ThrottleOptions = DEFAULT_THROTTLE, now = () => Date.now()) {
  const failures = new Map<string, number[]>()

  function recent(key: string): number[] {
    const cutoff = now() - options.windowMs
    const kept = (failures.get(key) ?? []).filter((time) => time > cutoff)
    if (kept.length) failures.set(key, kept)
    else failures.delete(key)
    return kept
  }

  return {
    /** Seconds to wait, or 0 when this address and email may try again. */
    retryAfter(address: string, email: string): number {
      const checks: [string, number][] = [
        [`ip:${address}`, options.maxPerAddress],
        [`email:${email.toLowerCase()}`, options.maxPerEmail],
      ]
      let wait = 0
      for (const [key, max] of checks) {
        const times = recent(key)
        if (times.length >= max) wait = Math.max(wait, Math.ceil((times[times.length - max] + options.windowMs - now()) / 1000))
      }
      return wait
    },
    recordFailure(address: string, email: string) {
      for (const key of [`ip:${address}`, `email:${email.toLowerCase()}`]) failures.set(key, [...recent(key), now()])
    },
    recordSuccess(email: string) {
      failures.delete(`email:${email.toLowerCase()}`)
    },
  }
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>
