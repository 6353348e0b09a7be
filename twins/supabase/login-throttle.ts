/**
 * Sign-in throttling, shaped like hosted Supabase's auth rate limits: limits per client address and
 * per (email, address) pair, plus a far higher ceiling per email. Locking an account therefore takes
 * many addresses: five wrong passwords from one address lock that address out of that account only,
 * and its owner still signs in from anywhere else (unless that address is abusive too).
 *
 * An attempt is counted when it starts, before the password is compared, so concurrent attempts cannot
 * all slip under a limit that was checked before any of them failed. A success then takes its own
 * attempt back and clears its pair's failures. In memory: a restart forgets, which is acceptable for a
 * local server (hosted Supabase enforces its own).
 */
export type ThrottleOptions = {
  /** Attempts on one email from one address. */
  maxPerPair: number
  /** Attempts from one address, whatever the email. */
  maxPerAddress: number
  /** Attempts on one email from every address together: the ceiling against distributed guessing. */
  maxPerEmail: number
  windowMs: number
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  maxPerPair: 5,
  maxPerAddress: 20,
  maxPerEmail: 100,
  windowMs: 15 * 60_000,
}

/** Above this many tracked keys, a lookup also forgets every expired one (bounded memory under spraying). */
const SWEEP_THRESHOLD = 10_000

export type ThrottleAttempt =
  | {
      allowed: true
      /** The password matched. (A failure needs no call: it was counted when the attempt began.) */
      succeeded: () => void
      /** The password was never compared (the server could not): the attempt does not count. */
      withdraw: () => void
    }
  | { allowed: false; retryAfterSeconds: number }

export function createLoginThrottle(options: ThrottleOptions = DEFAULT_THROTTLE, now = () => Date.now()) {
  const attempts = new Map<string, number[]>()

  function recent(key: string): number[] {
    const cutoff = now() - options.windowMs
    const kept = (attempts.get(key) ?? []).filter((time) => time > cutoff)
    if (kept.length) attempts.set(key, kept)
    else attempts.delete(key)
    return kept
  }

  function sweep() {
    if (attempts.size <= SWEEP_THRESHOLD) return
    for (const key of [...attempts.keys()]) recent(key)
  }

  function removeOne(key: string, time: number) {
    const times = attempts.get(key)
    const index = times?.indexOf(time) ?? -1
    if (!times || index < 0) return
    times.splice(index, 1)
    if (!times.length) attempts.delete(key)
  }

  return {
    /**
     * Counts an attempt, or refuses it when any limit is reached (retryAfterSeconds says for how long).
     * Check and count happen in one synchronous step: no other attempt can come in between.
     */
    begin(address: string, email: string): ThrottleAttempt {
      sweep()
      const normalized = email.toLowerCase()
      const buckets: [string, number][] = [
        [`pair:${normalized}\u0000${address}`, options.maxPerPair],
        [`ip:${address}`, options.maxPerAddress],
        [`email:${normalized}`, options.maxPerEmail],
      ]
      let wait = 0
      for (const [key, max] of buckets) {
        const times = recent(key)
        if (times.length >= max)
          wait = Math.max(wait, Math.ceil((times[times.length - max] + options.windowMs - now()) / 1000))
      }
      if (wait > 0) return { allowed: false, retryAfterSeconds: wait }
      const time = now()
      for (const [key] of buckets) attempts.set(key, [...recent(key), time])
      const [pair, ip, mail] = buckets.map(([key]) => key)
      return {
        allowed: true,
        // A success is not a failure: it takes back its own count and forgets its pair's failures (the
        // owner's typos). Other people's failures on this address or this email stay counted.
        succeeded() {
          attempts.delete(pair)
          removeOne(ip, time)
          removeOne(mail, time)
        },
        withdraw() {
          for (const key of [pair, ip, mail]) removeOne(key, time)
        },
      }
    },
  }
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>
