import { describe, expect, it } from 'vitest'
import {
  DRAFT_ACCESS_COOKIE,
  DRAFT_ACCESS_TTL_MS,
  draftAccessCookieOptions,
  draftAccessExpiry,
  draftAccessFromCookieHeader,
  draftAccessSecret,
  signDraftAccess,
} from '@/lib/security/draft-access-cookie'

const secret = 'a-server-secret-of-at-least-32-characters'
const now = Date.UTC(2026, 0, 15, 9)

describe('the draft-access cookie (signed, expiring: draft mode ends on its own)', () => {
  it('is valid until it expires, a few hours after it was issued, and not a moment after', () => {
    const value = signDraftAccess(secret, now)
    expect(draftAccessExpiry(value, secret, now)).toBe(now + DRAFT_ACCESS_TTL_MS)
    expect(draftAccessExpiry(value, secret, now + DRAFT_ACCESS_TTL_MS - 1)).toBe(now + DRAFT_ACCESS_TTL_MS)
    expect(draftAccessExpiry(value, secret, now + DRAFT_ACCESS_TTL_MS)).toBeNull()
    expect(DRAFT_ACCESS_TTL_MS).toBeGreaterThanOrEqual(3600_000)
    expect(DRAFT_ACCESS_TTL_MS).toBeLessThanOrEqual(12 * 3600_000)
  })

  it('is one value per issue, not one for everybody', () => {
    expect(signDraftAccess(secret, now)).not.toBe(signDraftAccess(secret, now))
  })

  it('cannot be forged, extended or carried to a server with another secret', () => {
    const value = signDraftAccess(secret, now)
    const [expires, ...rest] = value.split('.')
    expect(draftAccessExpiry([String(Number(expires) + 3600_000), ...rest].join('.'), secret, now)).toBeNull()
    expect(draftAccessExpiry(value, 'another-server-secret-of-32-characters!', now)).toBeNull()
    expect(draftAccessExpiry(`${value}x`, secret, now)).toBeNull()
    for (const junk of [undefined, '', '1', 'a.b.c', `${now + 1000}..`, '99999999999999999999.x.y'])
      expect(draftAccessExpiry(junk, secret, now), String(junk)).toBeNull()
  })

  it('is read from a Cookie header as the site server gets it', () => {
    const value = signDraftAccess(secret, now)
    expect(draftAccessFromCookieHeader(`a=1; ${DRAFT_ACCESS_COOKIE}=${value}; b=2`, secret, now)).toBe(true)
    expect(draftAccessFromCookieHeader(`a=1; x${DRAFT_ACCESS_COOKIE}=${value}`, secret, now)).toBe(false)
    expect(draftAccessFromCookieHeader(undefined, secret, now)).toBe(false)
  })

  it('is read from a Cookie header as the pages read it (cookies(): the last of its name, the name as written)', () => {
    const value = signDraftAccess(secret, now)
    expect(
      draftAccessFromCookieHeader(`${DRAFT_ACCESS_COOKIE}=${value}; ${DRAFT_ACCESS_COOKIE}=junk`, secret, now),
    ).toBe(false)
    expect(
      draftAccessFromCookieHeader(`${DRAFT_ACCESS_COOKIE}=junk; ${DRAFT_ACCESS_COOKIE}=${value}`, secret, now),
    ).toBe(true)
    expect(draftAccessFromCookieHeader(`a=1;\t${DRAFT_ACCESS_COOKIE}=${value}`, secret, now)).toBe(false)
    expect(draftAccessFromCookieHeader(`a=1;${DRAFT_ACCESS_COOKIE}=${value}`, secret, now)).toBe(true)
  })

  it('is HttpOnly and SameSite=Lax (the Presentation tool frames the site from its own origin), Secure over https', () => {
    expect(draftAccessCookieOptions({ secure: true, expires: now })).toMatchObject({
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      path: '/',
      expires: new Date(now),
    })
    expect(draftAccessCookieOptions({ secure: false, expires: now })).toMatchObject({ secure: false })
  })
})

describe('draftAccessSecret (the server secret the cookie is signed with)', () => {
  it('is DRAFT_MODE_SECRET when set', () => {
    expect(draftAccessSecret({ DRAFT_MODE_SECRET: secret })).toBe(secret)
  })

  it('hosted, is derived from the server-only read token: every instance of the site agrees, nobody without the token can sign', () => {
    const env = { NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de', SANITY_API_READ_TOKEN: 'sk-viewer-token' }
    expect(draftAccessSecret(env)).toBe(draftAccessSecret({ ...env }))
    expect(draftAccessSecret(env)).not.toBe(draftAccessSecret({ ...env, SANITY_API_READ_TOKEN: 'sk-another' }))
    expect(draftAccessSecret(env)).not.toContain('sk-viewer-token')
    expect(draftAccessSecret({ ...env, DRAFT_MODE_SECRET: secret })).toBe(secret)
  })

  // The rule used to ask lib/backends.ts whether the Sanity project is hosted before deriving from the
  // token. The production server checks draft access too, and its container image holds neither
  // lib/backends.ts nor zod, so the rule now reads only the variables: the token, whenever it is set
  // (offline it normally is not: the local Content Lake hands out its own viewer token), is a
  // server-only secret all the same.
  it('is derived from the read token whenever it is set, hosted project or not', () => {
    const token = { SANITY_API_READ_TOKEN: 'sk-viewer-token' }
    expect(draftAccessSecret(token)).toBe(draftAccessSecret({ ...token, NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de' }))
    expect(draftAccessSecret(token)).not.toBe(draftAccessSecret({}))
  })

  it('otherwise is random, made once per server process', () => {
    const local = draftAccessSecret({})
    expect(local.length).toBeGreaterThanOrEqual(32)
    expect(draftAccessSecret({})).toBe(local)
  })
})
