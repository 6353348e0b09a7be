/**
 * Why Next.js's router cannot take this HTTP request target, or null when it can. Its router throws on
 * two kinds, and `next start` then answers 500: a target that is neither a path nor an absolute URL
 * (`*`, the asterisk-form of `OPTIONS *`; `new URL` fails on it), and a path whose percent-encoding
 * does not decode (`/%ff`: matching a dynamic route decodes it, fails, and the 400 page Next.js would
 * show instead exists only for the Pages Router). The query string is not decoded by the router.
 */
export function malformedRequestTarget(target) {
  let path
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
