import { describe, expect, it } from 'vitest'
import { disableReturnPath, sameOriginPath } from '@/lib/draft-mode/return-path'

const host = 'site.example'
/** What a browser makes of a Location header sent by the site: the URL it goes to. */
const followed = (location: string) => new URL(location, `https://${host}/en/about`)
const back = (redirect: string | null, referrer: string | null = null) =>
  disableReturnPath({ redirect, referrer, host })

describe('sameOriginPath (where a redirect of the site may go)', () => {
  it('keeps a path of the site, normalised as a browser would, with its query and fragment', () => {
    expect(sameOriginPath('/en/about', host)).toBe('/en/about')
    expect(sameOriginPath('/en/about?x=1#top', host)).toBe('/en/about?x=1#top')
    expect(sameOriginPath('/en/./a/../about', host)).toBe('/en/about')
    expect(sameOriginPath(`https://${host}/en`, host)).toBe('/en')
    expect(sameOriginPath('/caf\u00e9 x', host)).toBe('/caf%C3%A9%20x')
  })

  it('refuses whatever a browser would take off the site', () => {
    for (const target of [
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      '/\t/evil.example',
      '/\t\\evil.example',
      '/\r\n/evil.example',
      'javascript:alert(1)',
      'https://site.example@evil.example/',
      'https:evil.example',
      `http://${host}:8080/`,
    ]) {
      expect(sameOriginPath(target, host), JSON.stringify(target)).toBeNull()
    }
  })

  it('refuses a path of the site that would leave it once sent as a Location (`//` after normalisation)', () => {
    expect(sameOriginPath('/.//evil.example/x', host)).toBeNull()
    expect(sameOriginPath(`https://${host}//evil.example/x`, host)).toBeNull()
  })
})

describe('disableReturnPath (/api/draft-mode/disable)', () => {
  it('returns to the page asked for, or to the referring page of the site', () => {
    expect(back('/en/about?x=1')).toBe('/en/about?x=1')
    expect(back(null, `https://${host}/en/contact?y=2`)).toBe('/en/contact?y=2')
    expect(back(null, null)).toBe('/')
    expect(back(null, `https://${host}/api/draft-mode/disable`)).toBe('/')
  })

  it('never sends the browser to another site, whatever the query or the referrer (as decoded from the URL)', () => {
    const asked = [
      '/\t/evil.example',
      '/\t\\evil.example',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      '/.//evil.example',
      '/\r/x',
      '/\u3000/x',
    ]
    for (const redirect of asked) {
      const location = back(redirect)
      expect(followed(location).host, JSON.stringify(redirect)).toBe(host)
    }
    for (const referrer of [
      `http://${host}//evil.example/x`,
      'https://evil.example/en',
      `https://${host}/\t/evil.example`,
    ]) {
      expect(followed(back(null, referrer)).host, referrer).toBe(host)
    }
  })

  it('answers only with what a header may carry: printable ASCII (a CR or a non-ASCII character made a 500)', () => {
    for (const redirect of ['/\r/x', '/\n/x', '/\u3000/x', '/caf\u00e9', '/a b'])
      expect(back(redirect), JSON.stringify(redirect)).toMatch(/^\/[\x21-\x7e]*$/)
    expect(back('/\u3000/x')).toBe('/%E3%80%80/x')
  })
})
