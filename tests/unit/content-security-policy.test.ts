import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, cspSource, withInlineHashes } from '../../lib/security/content-security-policy'
import { policySourcesFromEnv } from '../../lib/security/policy-sources'

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name)
    ?.slice(1)

const hostedEnv = {
  NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de',
  NEXT_PUBLIC_SUPABASE_URL: 'https://xyzcompany.supabase.co',
  NEXT_PUBLIC_SUPABASE_ANON_KEY: 'hosted-anon-key',
}
const hosted = policySourcesFromEnv({ ...hostedEnv, NODE_ENV: 'production' })
// The addresses the local services hand over (scripts/lib/start-twins.ts), plain-HTTP ones included.
const local = policySourcesFromEnv({
  NEXT_PUBLIC_SANITY_PROJECT_ID: 'local',
  NEXT_PUBLIC_SANITY_API_HOST: 'https://localhost:54380',
  NEXT_PUBLIC_SANITY_CDN_URL: 'http://127.0.0.1:54380',
  SANITY_PROJECT_API_URL: 'http://127.0.0.1:54380',
  NEXT_PUBLIC_SUPABASE_URL: 'http://127.0.0.1:54321',
  NEXT_PUBLIC_SUPABASE_ANON_KEY: 'local-anon-key',
})

describe('contentSecurityPolicy', () => {
  it('the site: nothing by default, scripts from itself only, the configured services, framed by itself only', () => {
    for (const sources of [local, hosted]) {
      const policy = contentSecurityPolicy('site', sources)
      expect(directive(policy, 'default-src')).toEqual(["'none'"])
      expect(directive(policy, 'script-src')).toEqual(["'self'"])
      expect(directive(policy, 'style-src')).toEqual(["'self'"])
      expect(directive(policy, 'base-uri')).toEqual(["'none'"])
      expect(directive(policy, 'form-action')).toEqual(["'self'"])
      expect(directive(policy, 'frame-ancestors')).toEqual(["'self'"])
      expect(directive(policy, 'object-src')).toEqual(["'none'"])
      expect(policy).not.toMatch(/unsafe|\bhttp:/)
    }
    expect(directive(contentSecurityPolicy('site', hosted), 'connect-src')).toEqual([
      "'self'",
      'https://xyzcompany.supabase.co',
    ])
    expect(directive(contentSecurityPolicy('site', hosted), 'img-src')).toEqual([
      "'self'",
      'data:',
      'https://cdn.sanity.io',
    ])
  })

  it('plain-HTTP services (the local ones) are named without a scheme: reachable from an http page, only over TLS from an https one', () => {
    expect(cspSource('http://127.0.0.1:54321/')).toBe('127.0.0.1:54321')
    expect(cspSource('https://xyzcompany.supabase.co')).toBe('https://xyzcompany.supabase.co')
    expect(directive(contentSecurityPolicy('site', local), 'connect-src')).toEqual(["'self'", '127.0.0.1:54321'])
    expect(directive(contentSecurityPolicy('site', local), 'img-src')).toEqual(["'self'", 'data:', '127.0.0.1:54380'])
  })

  it('the Studio: inline styles (Sanity UI), its API over https and wss, the Presentation frame on the same origin', () => {
    const policy = contentSecurityPolicy('studio', hosted)
    expect(directive(policy, 'script-src')).toEqual(["'self'"])
    expect(directive(policy, 'style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive(policy, 'connect-src')).toEqual(
      expect.arrayContaining(['https://abc123de.api.sanity.io', 'wss://abc123de.api.sanity.io']),
    )
    expect(directive(policy, 'connect-src')).not.toContain('https://xyzcompany.supabase.co') // the Studio never talks to Supabase
    expect(directive(policy, 'frame-src')).toEqual(["'self'"])
    expect(directive(contentSecurityPolicy('studio', local), 'connect-src')).toEqual(
      expect.arrayContaining(['https://localhost:54380', 'https://local.localhost:54380']),
    )
  })

  it('draft mode adds the overlays’ inline styles and the live connection, for editors only', () => {
    const policy = contentSecurityPolicy('site', hosted, { draftMode: true })
    expect(directive(policy, 'style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive(policy, 'connect-src')).toContain('https://abc123de.api.sanity.io')
    expect(directive(policy, 'script-src')).toEqual(["'self'"])
  })

  it('next dev gets what hot reloading needs', () => {
    const policy = contentSecurityPolicy('site', policySourcesFromEnv({ ...hostedEnv, NODE_ENV: 'development' }))
    expect(directive(policy, 'script-src')).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"])
  })
})

describe('withInlineHashes', () => {
  const policy = contentSecurityPolicy('site', hosted)
  const html = [
    '<!DOCTYPE html><html><head><script src="/_next/static/a.js" async=""></script>',
    '<script type="application/ld+json">{"@type":"Organization"}</script></head>',
    '<body><img alt="a > b" style="color:transparent" src="/x.png"/><div data-x=\'>\' style="--logo-start:1;font-family:&quot;Inter&quot;">',
    '<script>self.__next_f.push([1,"a"])</script><script id="_R_">(self.__next_f=self.__next_f||[]).push([0])</script>',
    '<script>self.__next_f.push([1,"a"])</script></div></body></html>',
  ].join('')

  it('names every inline script once by its hash, not external scripts nor data blocks', () => {
    const completed = withInlineHashes(policy, html)
    expect(directive(completed, 'script-src')).toEqual([
      "'self'",
      hash('self.__next_f.push([1,"a"])'),
      hash('(self.__next_f=self.__next_f||[]).push([0])'),
    ])
  })

  it('names style attributes, decoded as the browser reads them, under style-src-attr with unsafe-hashes', () => {
    const completed = withInlineHashes(policy, html)
    expect(directive(completed, 'style-src-attr')).toEqual([
      "'unsafe-hashes'",
      hash('color:transparent'),
      hash('--logo-start:1;font-family:"Inter"'),
    ])
    expect(directive(completed, 'style-src')).toEqual(["'self'"])
  })

  it('names the page’s <style> elements (its inlined stylesheet) in style-src, once, and nowhere inline styles are allowed', () => {
    const page = html.replace('</head>', '<style data-precedence="next" data-href="/a.css">b{color:red}</style></head>')
    expect(directive(withInlineHashes(policy, page), 'style-src')).toEqual(["'self'", hash('b{color:red}')])
    // Named already (the build wrote it into the portable policy): not repeated.
    const portable = contentSecurityPolicy('site', hosted, { portable: true }).replace(
      "style-src 'self'",
      `style-src 'self' ${hash('b{color:red}')}`,
    )
    expect(directive(withInlineHashes(portable, page), 'style-src')).toEqual(["'self'", hash('b{color:red}')])
    const studio = contentSecurityPolicy('studio', hosted)
    expect(directive(withInlineHashes(studio, page), 'style-src')).toEqual(["'self'", "'unsafe-inline'"])
  })

  it('adds nothing for style attributes where inline styles are allowed, nor to a policy without script-src', () => {
    const studio = withInlineHashes(contentSecurityPolicy('studio', hosted), html)
    expect(directive(studio, 'style-src-attr')).toBeUndefined()
    expect(withInlineHashes("default-src 'none'", html)).toBe("default-src 'none'")
  })

  it('a page without inline code keeps the policy as it was', () => {
    expect(withInlineHashes(policy, '<!DOCTYPE html><p>Bonjour</p>')).toBe(policy)
  })

  it('tightens the portable policy to exactly the strict one completed: hashes in, every unsafe-inline out', () => {
    for (const kind of ['site', 'studio'] as const) {
      const portable = contentSecurityPolicy(kind, hosted, { portable: true })
      expect(withInlineHashes(portable, html)).toBe(withInlineHashes(contentSecurityPolicy(kind, hosted), html))
      expect(withInlineHashes(portable, '<!DOCTYPE html><p>Bonjour</p>')).toBe(contentSecurityPolicy(kind, hosted))
    }
    const draft = contentSecurityPolicy('site', hosted, { portable: true, draftMode: true })
    expect(withInlineHashes(draft, html)).toBe(
      withInlineHashes(contentSecurityPolicy('site', hosted, { draftMode: true }), html),
    )
  })

  it('leaves the dev policy as it is: a hash would make browsers ignore its unsafe-inline', () => {
    const dev = contentSecurityPolicy('site', policySourcesFromEnv({ ...hostedEnv, NODE_ENV: 'development' }))
    expect(withInlineHashes(dev, html)).toBe(dev)
  })
})

describe('the portable policy (next.config.ts: the build served by Next alone)', () => {
  it('lets the pages’ own inline scripts and style attributes run, and nothing else changes', () => {
    const portable = contentSecurityPolicy('site', hosted, { portable: true })
    expect(directive(portable, 'script-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(directive(portable, 'style-src')).toEqual(["'self'"])
    expect(directive(portable, 'style-src-attr')).toEqual(["'unsafe-inline'"])
    expect(
      portable
        .replace("script-src 'self' 'unsafe-inline'", "script-src 'self'")
        .replace("; style-src-attr 'unsafe-inline'", ''),
    ).toBe(contentSecurityPolicy('site', hosted))
  })

  it('the Studio and draft mode, whose styles are inline already, only gain inline scripts', () => {
    for (const portable of [
      contentSecurityPolicy('studio', hosted, { portable: true }),
      contentSecurityPolicy('site', hosted, { portable: true, draftMode: true }),
    ]) {
      expect(directive(portable, 'script-src')).toEqual(["'self'", "'unsafe-inline'"])
      expect(directive(portable, 'style-src-attr')).toBeUndefined()
    }
  })
})
