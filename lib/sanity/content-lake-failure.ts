/*
 * What a failed read of the Content Lake says, in one line the server's log can show: Next logs the
 * error of each failed render, and @sanity/client's errors hold the request they made, its Authorization
 * header (the read token) among it. So the thrown error is always a new one, made of words only.
 */

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'refuses connections',
  ENOTFOUND: 'has a host name that does not resolve',
  EAI_AGAIN: 'has a host name that does not resolve',
  ECONNRESET: 'closed the connection',
  EHOSTUNREACH: 'cannot be reached',
  ENETUNREACH: 'cannot be reached',
  UND_ERR_SOCKET: 'closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept a connection in time',
  // get-it's own, when @sanity/client reads without fetch (draft mode's secret check).
  ETIMEDOUT: 'did not accept a connection in time',
}

/** TLS: a certificate Node does not trust (self-signed, an unknown authority, expired, another name). */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

type Failure = { code?: unknown; name?: unknown; statusCode?: unknown; message?: unknown; cause?: unknown }

/** The error and its causes, outermost first (a cause that is itself ends the chain). */
function chain(error: unknown): Failure[] {
  const links: Failure[] = []
  for (let current: unknown = error; current && typeof current === 'object';) {
    links.push(current as Failure)
    const next = (current as Failure).cause
    if (next === current || links.length > 10) break
    current = next
  }
  return links
}

/**
 * Why the Content Lake could not be read for want of an answer (refused, unknown host, untrusted
 * certificate, no answer within `deadlineMs`, a 5xx, any other failure of the connection), or undefined
 * when it did answer (a refused token, an unknown dataset, a query it rejects).
 */
function unreachableReason(error: unknown, deadlineMs: number): string | undefined {
  const links = chain(error)
  for (const { code, name, statusCode } of links) {
    if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code]
    if (typeof code === 'string' && CERTIFICATE_CODES.has(code))
      return `presents a certificate this server does not trust (${code}): give Node its authority (NODE_EXTRA_CA_CERTS) or fix the certificate`
    if (name === 'TimeoutError' || name === 'AbortError' || code === 'ESOCKETTIMEDOUT')
      return `did not answer within ${deadlineMs / 1000} s`
    if (typeof statusCode === 'number') return statusCode >= 500 ? `answered ${statusCode}` : undefined
  }
  // fetch's own failure ("fetch failed") before any answer: its deepest cause says why ("bad port"…).
  const deepest = links.at(-1)
  if (links.length > 1 && deepest) return `cannot be reached (${String(deepest.code ?? deepest.message)})`
  return undefined
}

/** An answer that refused the read, in words naming what to check. */
function refusalOf(error: unknown): string {
  const { statusCode, message } = (error ?? {}) as Failure
  // Its first line, without the address it names (the reason is about the Content Lake named before it).
  const said = String(message ?? error)
    .split('\n')[0]
    .replace(/ (on request )?to https?:\/\/\S+/, '')
    .slice(0, 200)
  if (statusCode === 401 || statusCode === 403) return `refused the read token (${said}): check SANITY_API_READ_TOKEN`
  if (statusCode === 404)
    return `has no such project or dataset (${said}): check NEXT_PUBLIC_SANITY_PROJECT_ID, NEXT_PUBLIC_SANITY_DATASET and SANITY_PROJECT_API_URL`
  return typeof statusCode === 'number' ? `answered ${statusCode} (${said})` : `could not be read (${said})`
}

/** A refusal that names the site's configuration: its read token (401, 403), its project or dataset (404). */
const CONFIGURATION_STATUSES = new Set([401, 403, 404])

/**
 * The error to throw for a failed read of the Content Lake at `apiUrl`; why it could not be reached when
 * that is the reason (undefined when it answered and refused); whether its refusal names the site's
 * configuration, which trying again will not mend.
 */
export function explainContentLakeFailure(
  error: unknown,
  apiUrl: string,
  deadlineMs: number,
): { error: Error; unreachable: string | undefined; misconfigured: boolean } {
  const reason = unreachableReason(error, deadlineMs)
  return {
    error: new Error(`The Content Lake at ${apiUrl} ${reason ?? refusalOf(error)}`),
    unreachable: reason,
    misconfigured: !reason && CONFIGURATION_STATUSES.has((error as Failure | null)?.statusCode as number),
  }
}
