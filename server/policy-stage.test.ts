import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Outgoing } from './stage.ts'
import { policyStage } from './policy-stage.ts'

/* The policy stage on responses as the pipeline hands them over (the pipeline's own test sends real
 * ones through Next-like handlers). The policies are the kinds next.config.ts sends: the portable site
 * policy, and the editors' one for a request in draft mode. */

const SITE = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self'; style-src-attr 'unsafe-inline'"
const EDITORS =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self' https://x.api.sanity.io"
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const page = (script: string) =>
  `<!DOCTYPE html><html><body><p style="color:red">Bonjour</p><script>${script}</script></body></html>`
const request = { method: 'GET', url: '/', headers: {} }

function html(body: string | null, { policy = SITE, etag = '"a"', status = 200 } = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy, etag },
    body: body === null ? null : Buffer.from(body),
  }
}
function completed(response: Outgoing, stage = policyStage()) {
  stage.apply(response, request)
  return response.headers['content-security-policy']
}

describe('policyStage', () => {
  it('asks for the body of HTML only', () => {
    const stage = policyStage()
    expect(stage.wantsBody({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }, request)).toBe(
      true,
    )
    for (const type of ['application/json', 'text/x-component', 'image/png', undefined]) {
      expect(stage.wantsBody({ status: 200, headers: type ? { 'content-type': type } : {} }, request)).toBe(false)
    }
  })

  it('a page: its inline script and style attribute hashes replace the portable policy’s unsafe-inline; the body is untouched', () => {
    const response = html(page('hello()'))
    expect(completed(response)).toBe(
      `default-src 'none'; script-src 'self' ${hash('hello()')}; style-src 'self'; style-src-attr 'unsafe-hashes' ${hash('color:red')}`,
    )
    expect(response.body?.toString()).toBe(page('hello()'))
  })

  it('the editors’ policy Next sends in draft mode is completed the same way (inline styles stay allowed there)', () => {
    expect(completed(html(page('draft()'), { policy: EDITORS }))).toBe(
      `default-src 'none'; script-src 'self' ${hash('draft()')}; style-src 'self' 'unsafe-inline'; connect-src 'self' https://x.api.sanity.io`,
    )
  })

  it('a page is hashed once per ETag and policy: a regenerated page (new ETag) gets its own hashes', () => {
    const stage = policyStage()
    expect(completed(html(page('one()'), { etag: '"1"' }), stage)).toContain(hash('one()'))
    // Same ETag, same policy: what was completed for that version (the body is not read again).
    expect(completed(html(page('other()'), { etag: '"1"' }), stage)).toContain(hash('one()'))
    const next = completed(html(page('two()'), { etag: '"2"' }), stage)
    expect(next).toContain(hash('two()'))
    expect(next).not.toContain(hash('one()'))
    // Same ETag, another policy (draft mode): completed on its own.
    expect(completed(html(page('one()'), { etag: '"1"', policy: EDITORS }), stage)).toContain(
      "'unsafe-inline'; connect-src",
    )
  })

  it('a 304 sends no policy, so the browser keeps the one stored with that body', () => {
    const response = html(null, { status: 304 })
    policyStage().apply(response, request)
    expect(response.headers).not.toHaveProperty('content-security-policy')
  })

  it('headers without a body (HEAD) and anything not HTML lose the portable policy’s unsafe-inline, gaining no hash', () => {
    expect(completed(html(null))).toBe("default-src 'none'; script-src 'self'; style-src 'self'")
    const json: Outgoing = {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-security-policy': SITE },
      body: Buffer.from('{"a":"<script>x()</script>"}'),
    }
    expect(completed(json)).toBe("default-src 'none'; script-src 'self'; style-src 'self'")
  })

  it('leaves a response without a policy alone', () => {
    const response: Outgoing = { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(page('x()')) }
    policyStage().apply(response, request)
    expect(response.headers).toEqual({ 'content-type': 'text/html' })
  })
})
