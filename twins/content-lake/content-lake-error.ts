/*
 * Errors in the Content Lake's shapes, apart from mutations.ts so that the query threads, which need
 * them, do not load @sanity/mutator.
 */

/** A request's failure in the Content Lake's error shape (`{ error: { type, description, items } }`). */
export class ContentLakeError extends Error {
  readonly status: number
  readonly body: unknown
  /** Headers the answer carries besides the JSON's (a 429's Retry-After). */
  readonly headers: Record<string, string>
  constructor(status: number, body: unknown, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.status = status
    this.body = body
    this.headers = headers
  }
}

export function badRequest(description: string, type = 'httpBadRequest') {
  return new ContentLakeError(400, { error: { description, type } }, description)
}

/** An error in the shape of the Content Lake's gateway errors (`{statusCode, error, message}`). */
export function gatewayError(status: number, error: string, message: string, headers: Record<string, string> = {}) {
  return new ContentLakeError(status, { statusCode: status, error, message }, message, headers)
}

/**
 * The 401 of a token that is no session (`errorCode` `SIO-401-ANF`, as the hosted API answers it): the
 * Studio signs out on it and shows its sign-in screen, where a stale stored token would otherwise stay.
 */
export function sessionNotFound(message: string) {
  return new ContentLakeError(
    401,
    { statusCode: 401, error: 'Unauthorized', message, errorCode: 'SIO-401-ANF' },
    message,
  )
}
