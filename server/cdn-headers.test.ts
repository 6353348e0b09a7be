import { describe, expect, it } from 'vitest'
import { CDN_MAX_AGE, STALE_IF_ERROR, STALE_WHILE_REVALIDATE, cdnCachePolicy, cdnCacheStage } from './cdn-headers.ts'

const ours = `public, max-age=0, s-maxage=${CDN_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}, stale-if-error=${STALE_IF_ERROR}`

describe('cdnCachePolicy', () => {
  it('a static page or file Next keeps a year: a CDN keeps it a short while, then stale while it refreshes', () => {
    expect(cdnCachePolicy('s-maxage=31536000')).toBe(ours)
    expect(cdnCachePolicy('s-maxage=31536000, stale-while-revalidate')).toBe(ours)
    expect(CDN_MAX_AGE).toBeLessThanOrEqual(300)
    expect(STALE_WHILE_REVALIDATE).toBeGreaterThan(CDN_MAX_AGE)
  })

  it('private, no-store and build files are left as they are', () => {
    for (const value of [
      'private, no-cache, no-store, max-age=0, must-revalidate',
      'private, no-store',
      'public, max-age=31536000, immutable',
      'no-store',
      undefined,
    ]) {
      expect(cdnCachePolicy(value)).toBe(value)
    }
  })
})

describe('cdnCacheStage', () => {
  const request = { method: 'GET', url: '/', headers: {} }

  it('rewrites the headers of any response, one whose body streams (a 304, a HEAD) included, and never asks for a body', () => {
    for (const body of [Buffer.from('<p>x</p>'), null]) {
      const response = {
        status: body ? 200 : 304,
        headers: { 'cache-control': 's-maxage=31536000', etag: '"a"' },
        body,
      }
      expect(cdnCacheStage.wantsBody(response, request)).toBe(false)
      cdnCacheStage.apply(response, request)
      expect(response.headers).toEqual({ 'cache-control': ours, etag: '"a"' })
      expect(response.body).toBe(body)
    }
  })

  it('an answer to a request Next could read its draft-mode cookie from is never shareable (it may carry the editors’ policy)', () => {
    for (const cookie of [
      '__prerender_bypass=x',
      ' __prerender_bypass =x',
      'a=1;\t__prerender_bypass=',
      '__prerender_bypass',
    ]) {
      const editors = { method: 'GET', url: '/', headers: { cookie } }
      const response = { status: 200, headers: { 'cache-control': 's-maxage=31536000' }, body: null }
      cdnCacheStage.apply(response, editors)
      expect([cookie, response.headers['cache-control']]).toEqual([cookie, 'private, no-store'])
      // The build's files keep their year: they carry no policy a page runs under.
      const file = { status: 200, headers: { 'cache-control': 'public, max-age=31536000, immutable' }, body: null }
      cdnCacheStage.apply(file, editors)
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    expect(cdnCachePolicy('s-maxage=31536000', { draftMode: true })).toBe('private, no-store')
  })

  it('adds no Cache-Control where Next sent none', () => {
    const response = { status: 200, headers: { 'content-type': 'image/png' }, body: null }
    cdnCacheStage.apply(response, request)
    expect(response.headers).toEqual({ 'content-type': 'image/png' })
  })
})
