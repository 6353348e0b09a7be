// Preloaded (`node --import`) into Node tools that address a project as `<projectId>.localhost` —
// the Sanity CLI always does — so that such names reach 127.0.0.1 as they do in browsers
// (RFC 6761 reserves *.localhost for loopback; glibc here does not resolve them).
import dns from 'node:dns'

const lookup = dns.lookup
// dns.lookup's overloads cannot be restated one by one here: the wrapper only renames the host.
const renamed = function lookupLocalhostSubdomains(this: unknown, hostname: string, ...rest: unknown[]) {
  const host = typeof hostname === 'string' && hostname.endsWith('.localhost') ? 'localhost' : hostname
  return (lookup as (...args: unknown[]) => unknown).call(this, host, ...rest)
}
dns.lookup = renamed as typeof dns.lookup
