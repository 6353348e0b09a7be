import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { parseCookie } from 'next/dist/compiled/@edge-runtime/cookies/index.js'
import { getCookieParser } from 'next/dist/server/api-utils/get-cookie-parser.js'
import { COOKIE_NAME_PRERENDER_BYPASS } from 'next/dist/server/api-utils/index.js'
import { matchHas } from 'next/dist/shared/lib/router/utils/prepare-destination.js'
import { getPathMatch } from 'next/dist/shared/lib/router/utils/path-match.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRAFT_ACCESS_COOKIE, signDraftAccess } from '../lib/security/draft-access-cookie.ts'
import { PRERENDER_BYPASS_COOKIE } from '../lib/security/request-cookies.ts'
// A test, which the container image does not hold (container-imports.test.ts reads no test): it asks
// next.config.ts for the rules Next applies to each request.
// eslint-disable-next-line no-restricted-imports
import nextConfig from '../next.config.ts'
import { draftModeGate } from './draft-gate.ts'
import { createResponsePipeline } from './response-pipeline.ts'
import { MemoryCache } from './memory-cache.ts'

/* What Next.js gets to see of draft mode: this build's bypass cookie, only beside a valid draft-access
 * cookie; the request is otherwise left as it came. What Next reads is asked of Next's own code: the
 * route matching of next.config.ts's `has` rules (the compiled `cookie` parser) and draftMode()'s
 * RequestCookies. */

const SECRET = 'a-server-secret-of-at-least-32-characters'
const PREVIEW_ID = 'this-build-preview-id'
const gate = draftModeGate(PREVIEW_ID, () => SECRET)
const access = `${DRAFT_ACCESS_COOKIE}=${signDraftAccess(SECRET)}`
const BYPASS = '__prerender_bypass'

/** The Cookie header Next.js receives for one a client sent. */
function afterGate(cookie: string | undefined): string | undefined {
  const request = { headers: cookie === undefined ? {} : { cookie } } as IncomingMessage
  gate(request)
  return request.headers.cookie
}

/** What Next reads as its draft-mode cookie from a header: for `has` rules, and for draftMode(). */
const nextReads = (header: string | undefined) => ({
  route: header ? getCookieParser({ cookie: header })()[BYPASS] : undefined,
  draftMode: header ? parseCookie(header).get(BYPASS) : undefined,
})

describe('draftModeGate', () => {
  it('an editor (this build’s bypass cookie and a valid draft-access cookie) keeps draft mode', () => {
    const cookie = `a=1; __prerender_bypass=${PREVIEW_ID}; ${access}`
    expect(afterGate(cookie)).toBe(`a=1; ${access}; __prerender_bypass=${PREVIEW_ID}`)
  })

  it('the bypass cookie alone, with a forged, expired or other server’s access cookie, or not this build’s, is removed', () => {
    const expired = `${DRAFT_ACCESS_COOKIE}=${signDraftAccess(SECRET, Date.now() - 10 * 3600_000)}`
    const otherServer = `${DRAFT_ACCESS_COOKIE}=${signDraftAccess('another-server-secret-of-32-characters!')}`
    for (const [cookie, left] of [
      [`__prerender_bypass=${PREVIEW_ID}`, undefined],
      [`__prerender_bypass=${PREVIEW_ID}; a=1`, 'a=1'],
      [`__prerender_bypass=${PREVIEW_ID}; ${expired}`, expired],
      [`__prerender_bypass=${PREVIEW_ID}; ${otherServer}`, otherServer],
      [`__prerender_bypass=${PREVIEW_ID}; ${DRAFT_ACCESS_COOKIE}=1.2.3`, `${DRAFT_ACCESS_COOKIE}=1.2.3`],
      [`__prerender_bypass=forged; ${access}`, access],
    ]) {
      expect([cookie, afterGate(cookie)]).toEqual([cookie, left])
    }
  })

  it('removes every pair Next reads as its cookie: spaces or a tab around the name, a quoted value, the name twice', () => {
    expect([BYPASS, PRERENDER_BYPASS_COOKIE]).toEqual([COOKIE_NAME_PRERENDER_BYPASS, COOKIE_NAME_PRERENDER_BYPASS])
    for (const [cookie, left] of [
      [' __prerender_bypass =x', undefined],
      ['a=1; __prerender_bypass =x', 'a=1'],
      ['a=1;\t__prerender_bypass=x', 'a=1'],
      ['a=1;\u00a0__prerender_bypass\u00a0=x; b=2', 'a=1; b=2'],
      ['a=1;__prerender_bypass=x', 'a=1'],
      [`__prerender_bypass="${PREVIEW_ID}"`, undefined],
      [`__prerender_bypass =${PREVIEW_ID}; __prerender_bypass=x; a=1`, 'a=1'],
      ['__prerender_bypass', undefined],
      ['__prerender_bypass=%E0; a=1', 'a=1'],
      // Without a valid draft-access cookie as the pages read it (the last of its name, as cookies() does).
      [
        `__prerender_bypass=${PREVIEW_ID}; ${access}; ${DRAFT_ACCESS_COOKIE}=junk`,
        `${access}; ${DRAFT_ACCESS_COOKIE}=junk`,
      ],
    ] as const) {
      const after = afterGate(cookie)
      expect([cookie, after, nextReads(after)]).toEqual([cookie, left, { route: undefined, draftMode: undefined }])
    }
  })

  it('an editor keeps draft mode however the browser wrote this build’s cookie, and only this build’s, once', () => {
    for (const cookie of [
      `__prerender_bypass=old; __prerender_bypass=${PREVIEW_ID}; ${access}`,
      `__prerender_bypass=${PREVIEW_ID}; ${access}; __prerender_bypass=x`,
      `__prerender_bypass="${PREVIEW_ID}"; ${access}`,
      ` __prerender_bypass = ${PREVIEW_ID}; ${access}`,
    ]) {
      expect([cookie, afterGate(cookie)]).toEqual([cookie, `${access}; __prerender_bypass=${PREVIEW_ID}`])
    }
  })

  it('leaves every other request exactly as it came', () => {
    for (const cookie of [undefined, '', 'a=1; b=2', `${access}`, 'x__prerender_bypass=1', 'a=__prerender_bypass'])
      expect(afterGate(cookie)).toBe(cookie)
  })

  it('whatever the header, Next reads its cookie after the gate only as this build’s, and only for an editor', () => {
    const name = fc.constantFrom(
      BYPASS,
      ` ${BYPASS}`,
      `${BYPASS} `,
      `\t${BYPASS}`,
      `\u00a0${BYPASS}`,
      'a',
      DRAFT_ACCESS_COOKIE,
    )
    const value = fc.constantFrom(
      'x',
      '',
      PREVIEW_ID,
      `"${PREVIEW_ID}"`,
      ` ${PREVIEW_ID} `,
      '%E0',
      '"',
      access.split('=')[1],
    )
    const pair = fc.oneof(
      fc.tuple(name, value).map(([n, v]) => `${n}=${v}`),
      name,
      fc.constant(access),
    )
    const header = fc
      .tuple(
        fc.array(pair, { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom('; ', ';', ';  '), { minLength: 6, maxLength: 6 }),
      )
      .map(([pairs, separators]) =>
        pairs.reduce((text, next, index) => (index ? `${text}${separators[index]}${next}` : next), ''),
      )
    fc.assert(
      fc.property(header, (cookie) => {
        const after = afterGate(cookie)
        const read = nextReads(after)
        // An editor as the pages see one: a valid draft-access cookie (the last of its name).
        const editor = parseCookie(cookie).get(DRAFT_ACCESS_COOKIE) === access.split('=')[1]
        expect([cookie, read.route, read.draftMode]).toEqual(
          editor && read.route !== undefined ? [cookie, PREVIEW_ID, PREVIEW_ID] : [cookie, undefined, undefined],
        )
      }),
      { numRuns: 2000 },
    )
  })
})

/*
 * The gate and the pipeline as server/main.ts composes them, in front of a stand-in for Next.js that
 * answers a static page as Next does: the headers of next.config.ts's rules whose source and `has`
 * match (Next's own matchers, last rule wins), `s-maxage` unless draftMode() is on for the request
 * (RequestCookies: this build's value), then `private, no-cache, no-store`.
 */
describe('the draft gate in front of the pipeline (server/main.ts)', () => {
  type HeaderRule = { source: string; has?: Parameters<typeof matchHas>[2]; headers: { key: string; value: string }[] }
  let rules: HeaderRule[] = []
  const pipeline = createResponsePipeline({ cache: new MemoryCache() })
  let server: Server
  let base = ''

  /** `configCacheControl: false`: as if the configuration set no Cache-Control (a build from before it). */
  function nextLike(request: IncomingMessage, response: ServerResponse, { configCacheControl = true } = {}) {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    for (const rule of rules) {
      const pathMatches = getPathMatch(rule.source, { strict: true, removeUnnamedParams: true, sensitive: false })
      if (pathMatches(path) === false || !matchHas(request, {}, rule.has ?? [], [])) continue
      for (const { key, value } of rule.headers)
        if (configCacheControl || key.toLowerCase() !== 'cache-control') response.setHeader(key, value)
    }
    const draftMode = parseCookie(request.headers.cookie ?? '').get(BYPASS) === PREVIEW_ID
    if (draftMode) response.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate')
    else if (!response.getHeader('Cache-Control')) response.setHeader('Cache-Control', 's-maxage=31536000')
    response.setHeader('Content-Type', 'text/html; charset=utf-8')
    response.end(`<!DOCTYPE html><html><body><p>${draftMode ? 'draft' : 'published'}</p></body></html>`)
  }

  beforeAll(async () => {
    const config = nextConfig('phase-production-server')
    rules = (await config.headers!()) as HeaderRule[]
    server = createServer((request, response) => {
      gate(request)
      pipeline(request, response, nextLike)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const editorsPolicy = (policy: string | null) => /(?:^|;)\s*style-src [^;]*'unsafe-inline'/.test(policy ?? '')

  it('a cookie name with a space gets neither the editors’ policy nor a shared copy of it for the visitors after', async () => {
    // The stand-in answers as Next does: Next's route matching reads the spaced name as the cookie, and
    // an editor gets the editors' policy and the draft.
    const request = { headers: { cookie: ` ${BYPASS} =x` } } as unknown as IncomingMessage
    expect(rules.some((rule) => rule.has && matchHas(request, {}, rule.has, []))).toBe(true)
    const editor = await fetch(`${base}/en/team`, { headers: { cookie: `${BYPASS}=${PREVIEW_ID}; ${access}` } })
    expect([editorsPolicy(editor.headers.get('content-security-policy')), await editor.text()]).toEqual([
      true,
      expect.stringContaining('draft'),
    ])
    expect(editor.headers.get('cache-control')).toMatch(/private/)
    for (const cookie of [` ${BYPASS} =x`, `a=1;\t${BYPASS}=x`, `${BYPASS}="x"`, `${BYPASS}=x; ${BYPASS}=y`]) {
      const path = `/en/about?${encodeURIComponent(cookie)}`
      const attacker = await fetch(`${base}${path}`, { headers: { cookie } })
      expect([cookie, editorsPolicy(attacker.headers.get('content-security-policy'))]).toEqual([cookie, false])
      await attacker.text()
      const visitor = await fetch(`${base}${path}`)
      expect([cookie, editorsPolicy(visitor.headers.get('content-security-policy'))]).toEqual([cookie, false])
      expect(visitor.headers.get('cache-control')).toMatch(/s-maxage=/)
    }
  })

  it('whatever reaches Next with its cookie and gets the editors’ policy is private: next.config.ts says so, and the pipeline', async () => {
    const request = { headers: { cookie: ` ${BYPASS} =x` } } as unknown as IncomingMessage
    const headers = new Map<string, string>()
    for (const rule of rules) {
      const pathMatches = getPathMatch(rule.source, { strict: true, removeUnnamedParams: true, sensitive: false })
      if (pathMatches('/en/about') === false || !matchHas(request, {}, rule.has ?? [], [])) continue
      for (const { key, value } of rule.headers) headers.set(key.toLowerCase(), value)
    }
    expect([editorsPolicy(headers.get('content-security-policy') ?? null), headers.get('cache-control')]).toEqual([
      true,
      'private, no-store',
    ])
    // Straight to the pipeline, past the gate (as if it had missed one), from a configuration without
    // that Cache-Control: the pipeline makes it private itself, and keeps nothing of it.
    const bypassing = createServer((request, response) =>
      pipeline(request, response, (request, response) => nextLike(request, response, { configCacheControl: false })),
    )
    await new Promise<void>((resolve) => bypassing.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(bypassing.address() as AddressInfo).port}`
      const attacker = await fetch(`${origin}/en/contact`, { headers: { cookie: ` ${BYPASS} =x` } })
      expect(editorsPolicy(attacker.headers.get('content-security-policy'))).toBe(true)
      expect(attacker.headers.get('cache-control')).toBe('private, no-store')
      await attacker.text()
      const visitor = await fetch(`${origin}/en/contact`)
      expect(editorsPolicy(visitor.headers.get('content-security-policy'))).toBe(false)
    } finally {
      await new Promise<void>((resolve) => bypassing.close(() => resolve()))
    }
  })
})
