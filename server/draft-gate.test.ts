import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { DRAFT_ACCESS_COOKIE, signDraftAccess } from '../lib/security/draft-access-cookie.ts'
import { draftModeGate } from './draft-gate.ts'

/* What Next.js gets to see of draft mode: this build's bypass cookie, only beside a valid draft-access
 * cookie; the request is otherwise left as it came. */

const SECRET = 'a-server-secret-of-at-least-32-characters'
const PREVIEW_ID = 'this-build-preview-id'
const gate = draftModeGate(PREVIEW_ID, () => SECRET)
const access = `${DRAFT_ACCESS_COOKIE}=${signDraftAccess(SECRET)}`

/** The Cookie header Next.js receives for one a client sent. */
function afterGate(cookie: string | undefined): string | undefined {
  const request = { headers: cookie === undefined ? {} : { cookie } } as IncomingMessage
  gate(request)
  return request.headers.cookie
}

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

  it('an editor who also sends a stale bypass cookie keeps only this build’s', () => {
    expect(afterGate(`__prerender_bypass=old; __prerender_bypass=${PREVIEW_ID}; ${access}`)).toBe(
      `${access}; __prerender_bypass=${PREVIEW_ID}`,
    )
  })

  it('leaves every other request exactly as it came', () => {
    for (const cookie of [undefined, '', 'a=1; b=2', `${access}`, 'x__prerender_bypass=1'])
      expect(afterGate(cookie)).toBe(cookie)
  })
})
