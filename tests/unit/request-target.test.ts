import { describe, expect, it } from 'vitest'
import { malformedRequestTarget } from '../../scripts/lib/request-target.mjs'

describe('malformedRequestTarget (what serve-site.mjs turns away before Next.js)', () => {
  it('refuses what Next.js cannot route: `*` and other non-URL targets, paths that do not percent-decode', () => {
    for (const target of ['*', '', 'example.com:443', 'mailto:x@example.fr', '/%ff', '/en/%ff', '/%E0%A4%A', '/%', 'http://x/%ff']) {
      expect(malformedRequestTarget(target), target).not.toBeNull()
    }
  })

  it('lets ordinary targets through, absolute-form and bad query strings included (the router does not decode those)', () => {
    for (const target of ['/', '/en/contact', '/caf%C3%A9', '/en/contact?utm=%ff', 'http://localhost:3000/en', '/a%2Fb']) {
      expect(malformedRequestTarget(target), target).toBeNull()
    }
  })
})
