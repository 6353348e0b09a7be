import { describe, expect, it } from 'vitest'
import { createLoginThrottle, DEFAULT_THROTTLE, type ThrottleOptions } from './login-throttle.ts'

function throttle(options: Partial<ThrottleOptions> = {}) {
  let clock = 1_000_000
  const limiter = createLoginThrottle({ ...DEFAULT_THROTTLE, ...options }, () => clock)
  return { limiter, advance: (ms: number) => (clock += ms) }
}

/** Starts an attempt that then fails (counted at its start, nothing more to do). */
const fail = (limiter: ReturnType<typeof throttle>['limiter'], address: string, email: string) =>
  limiter.begin(address, email).allowed

describe('sign-in throttle', () => {
  it('counts an attempt when it begins: attempts in flight use up the allowance before any has failed', () => {
    const { limiter } = throttle()
    const started = Array.from({ length: 60 }, () => limiter.begin('203.0.113.1', 'admin@example.fr'))
    expect(started.filter((attempt) => attempt.allowed)).toHaveLength(DEFAULT_THROTTLE.maxPerPair)
    expect(started.at(-1)).toMatchObject({ allowed: false, retryAfterSeconds: 900 })
  })

  it('limits one address across many emails', () => {
    const { limiter } = throttle()
    const results = Array.from({ length: 50 }, (_, i) => fail(limiter, '203.0.113.2', `user${i}@example.fr`))
    expect(results.filter(Boolean)).toHaveLength(DEFAULT_THROTTLE.maxPerAddress)
  })

  it('a pair locked out does not lock the account for other addresses', () => {
    const { limiter } = throttle()
    for (let i = 0; i < DEFAULT_THROTTLE.maxPerPair; i++) fail(limiter, '198.51.100.66', 'admin@example.fr')
    expect(limiter.begin('198.51.100.66', 'admin@example.fr').allowed).toBe(false)
    expect(limiter.begin('192.0.2.10', 'admin@example.fr').allowed).toBe(true)
  })

  it('the per-email ceiling stops guessing spread over many addresses', () => {
    const { limiter } = throttle({ maxPerEmail: 12 })
    let allowed = 0
    for (let address = 0; address < 10; address++)
      for (let i = 0; i < 3; i++) if (fail(limiter, `10.0.0.${address}`, 'admin@example.fr')) allowed++
    expect(allowed).toBe(12)
    expect(limiter.begin('10.9.9.9', 'admin@example.fr').allowed).toBe(false)
  })

  it('a success takes back its own count and clears its pair, but not other failures', () => {
    const { limiter } = throttle({ maxPerPair: 3, maxPerAddress: 5 })
    fail(limiter, '192.0.2.1', 'owner@example.fr')
    fail(limiter, '192.0.2.1', 'owner@example.fr')
    fail(limiter, '192.0.2.1', 'other@example.fr')
    const attempt = limiter.begin('192.0.2.1', 'owner@example.fr')
    if (!attempt.allowed) throw new Error('should be allowed')
    attempt.succeeded()
    // The pair starts afresh: three more tries are allowed for the owner...
    for (let i = 0; i < 2; i++) expect(fail(limiter, '192.0.2.1', 'owner@example.fr')).toBe(true)
    // ...but the address still carries its five failures (2 + 1 + 2), whatever the success.
    expect(limiter.begin('192.0.2.1', 'owner@example.fr').allowed).toBe(false)
  })

  it('a withdrawn attempt (never compared) does not count', () => {
    const { limiter } = throttle({ maxPerPair: 1 })
    const attempt = limiter.begin('192.0.2.3', 'x@example.fr')
    if (!attempt.allowed) throw new Error('should be allowed')
    attempt.withdraw()
    expect(limiter.begin('192.0.2.3', 'x@example.fr').allowed).toBe(true)
  })

  it('forgets attempts after the window; Retry-After counts down to the oldest one leaving it', () => {
    const { limiter, advance } = throttle({ maxPerPair: 2, windowMs: 60_000 })
    fail(limiter, 'a', 'e@example.fr')
    advance(20_000)
    fail(limiter, 'a', 'e@example.fr')
    expect(limiter.begin('a', 'e@example.fr')).toEqual({ allowed: false, retryAfterSeconds: 40 })
    advance(40_001)
    expect(limiter.begin('a', 'E@example.fr').allowed).toBe(true)
  })
})
