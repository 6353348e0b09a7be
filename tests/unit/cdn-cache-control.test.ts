import { describe, expect, it } from 'vitest'
import { CDN_MAX_AGE, STALE_WHILE_REVALIDATE, cdnCachePolicy } from '../../scripts/lib/cdn-cache-control.mjs'

describe('cdnCachePolicy', () => {
  const ours = `public, max-age=0, s-maxage=${CDN_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}`

  it('a static page or file Next keeps a year: a CDN keeps it a short while, then stale while it refreshes', () => {
    expect(cdnCachePolicy('s-maxage=31536000')).toBe(ours)
    expect(cdnCachePolicy('s-maxage=31536000, stale-while-revalidate')).toBe(ours)
    expect(CDN_MAX_AGE).toBeLessThanOrEqual(300)
    expect(STALE_WHILE_REVALIDATE).toBeGreaterThan(CDN_MAX_AGE)
  })

  it('private, no-store and build files are left as they are', () => {
    for (const value of ['private, no-cache, no-store, max-age=0, must-revalidate', 'private, no-store', 'public, max-age=31536000, immutable', 'no-store', undefined]) {
      expect(cdnCachePolicy(value)).toBe(value)
    }
  })
})
