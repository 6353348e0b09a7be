import { describe, expect, it } from 'vitest'
import { malformedRequestTarget, originForm } from './target-form.ts'

describe('malformedRequestTarget (what the production server turns away before Next.js)', () => {
  it('refuses what Next.js cannot route: `*` and other non-URL targets, paths that do not percent-decode', () => {
    for (const target of [
      '*',
      '',
      'example.com:443',
      'mailto:x@example.fr',
      '/%ff',
      '/en/%ff',
      '/%E0%A4%A',
      '/%',
      'http://x/%ff',
    ]) {
      expect(malformedRequestTarget(target), target).not.toBeNull()
    }
  })

  it('lets ordinary targets through, absolute-form and bad query strings included (the router does not decode those)', () => {
    for (const target of [
      '/',
      '/en/contact',
      '/caf%C3%A9',
      '/en/contact?utm=%ff',
      'http://localhost:3000/en',
      '/a%2Fb',
    ]) {
      expect(malformedRequestTarget(target), target).toBeNull()
    }
  })
})

describe('originForm (the target the production server hands to Next.js)', () => {
  it('drops the scheme and host of an absolute-form target: the Host header names the site, never the request line', () => {
    expect(originForm('http://evil.example/en')).toBe('/en')
    expect(originForm('https://evil.example:8443/en/contact?x=1')).toBe('/en/contact?x=1')
    expect(originForm('http://localhost:3000')).toBe('/')
    expect(originForm('HTTP://evil.example/caf%C3%A9?q=%ff')).toBe('/caf%C3%A9?q=%ff')
    // A fragment never belongs in a request target; the userinfo of one never reaches Next.js either.
    expect(originForm('http://user:pass@evil.example/a#frag')).toBe('/a')
  })

  it('leaves an origin-form target exactly as it came (the router reads its own encoding)', () => {
    for (const target of ['/', '/en/contact?utm=%ff', '/a%2Fb', '//evil.example/en', '/caf%C3%A9'])
      expect(originForm(target)).toBe(target)
  })
})
