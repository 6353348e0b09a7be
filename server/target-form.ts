/** What a visitor reads for an address the site cannot read, in the site's language first. */
export const BAD_ADDRESS_TEXT = 'Adresse invalide : le site ne peut pas la lire.'

/**
 * Why Next.js's router cannot take this HTTP request target, or null when it can. Its router throws on
 * two kinds, and `next start` then answers 500: a target that is neither a path nor an absolute URL
 * (`*`, the asterisk-form of `OPTIONS *`; `new URL` fails on it), and a path whose percent-encoding
 * does not decode (`/%ff`: matching a dynamic route decodes it, fails, and the 400 page Next.js would
 * show instead exists only for the Pages Router). The query string is not decoded by the router.
 */
export function malformedRequestTarget(target: string | undefined): string | null {
  let path: string
  if (typeof target !== 'string' || target === '') return 'an empty request target'
  if (target.startsWith('/')) path = target
  else {
    try {
      const url = new URL(target) // absolute-form, which servers must accept (RFC 9112 §3.2.2)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'a request target that is not an http(s) URL'
      path = url.pathname
    } catch {
      return 'a request target that is neither a path nor an absolute URL'
    }
  }
  try {
    decodeURIComponent(path.split('?', 1)[0])
  } catch {
    return 'a path whose percent-encoding does not decode'
  }
  return null
}

/**
 * The origin-form (path and query) of a request target that malformedRequestTarget accepted. An
 * absolute-form target (`GET http://evil.example/en HTTP/1.1`) names a host of its own, and Next.js
 * builds redirects from it (`308 Location: http://evil.example/en`): the host that counts is the Host
 * header's, so only the path and query go on, as a server behind a proxy receives them.
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target
  const url = new URL(target)
  return `${url.pathname}${url.search}`
}
