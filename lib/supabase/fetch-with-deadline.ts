/**
 * The longest any request to Supabase may take (the form's insert, the inbox's reads, signing in):
 * supabase-js sets none, and a Supabase that hangs left the form's button spinning for ever. Past it
 * the request fails, and the form or the inbox says so.
 */
export const SUPABASE_DEADLINE_MS = 10_000
/**
 * An Edge Function's: the inbox's « Renvoyer la notification » waits for the mail server, which
 * send-contact-email gives up to 50 s (its SMTP deadlines, supabase/functions/send-contact-email/mail.ts).
 */
export const FUNCTION_DEADLINE_MS = 60_000
/** The longest wait a `Retry-After` may ask of the inbox's reads before their next try. */
export const RETRY_AFTER_CAP_S = 2

/**
 * fetch with a deadline, the caller's own signal (`.abortSignal()`) still honoured. postgrest-js tries a
 * read again when it fails for want of an answer (three more times, after 1, 2 and 4 s, as the spec's
 * client did) or when Supabase answers 503 or 520 (after the `Retry-After` it gives, however long).
 * Past the deadline the request is aborted, which it does not retry: a Supabase that hangs costs one
 * deadline, not four. A longer `Retry-After` is cut to RETRY_AFTER_CAP_S, so retries stay within seconds.
 */
export function createFetchWithDeadline(deadlineMs: number, functionDeadlineMs = deadlineMs): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const ms = new URL(url).pathname.startsWith('/functions/v1/') ? functionDeadlineMs : deadlineMs
    const deadline = new AbortController()
    // Left armed once the headers are in: the body must arrive within the deadline too.
    setTimeout(
      () => deadline.abort(new DOMException(`Supabase gave no answer within ${ms / 1000} s`, 'AbortError')),
      ms,
    )
    // AbortSignal.any is newer than some browsers Next supports (Safari before 17.4): there, a caller's
    // own signal wins, as before.
    const signal = !init.signal
      ? deadline.signal
      : 'any' in AbortSignal
        ? AbortSignal.any([init.signal, deadline.signal])
        : init.signal
    const response = await fetch(input, { ...init, signal })
    if (!(Number(response.headers.get('Retry-After')) > RETRY_AFTER_CAP_S)) return response
    const headers = new Headers(response.headers)
    headers.set('Retry-After', String(RETRY_AFTER_CAP_S))
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

export const fetchWithDeadline = createFetchWithDeadline(SUPABASE_DEADLINE_MS, FUNCTION_DEADLINE_MS)
