// Preloaded (`node --import`) into Node tools that address a project as `<projectId>.localhost` —
// the Sanity CLI always does — so that such names reach 127.0.0.1 as they do in browsers
// (RFC 6761 reserves *.localhost for loopback; glibc here does not resolve them).
import dns from 'node:dns'

const lookup = dns.lookup
dns.lookup = function lookupLocalhostSubdomains(hostname, ...rest) {
  return lookup.call(this, typeof hostname === 'string' && hostname.endsWith('.localhost') ? 'localhost' : hostname, ...rest)
}
