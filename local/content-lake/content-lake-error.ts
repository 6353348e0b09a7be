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
