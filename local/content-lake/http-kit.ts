import { BodyTooLargeError, readBody as readBoundedBody, type Request } from '../http-kit.ts'
import { ContentLakeError } from './mutations.ts'

/*
 * The Content Lake's side of the shared kit (../http-kit.ts): its body limits, and bad bodies answered
 * in the shape of the Content Lake's gateway errors.
 */
export { bearerToken, header, send, sendJson, type Request, type Response } from '../http-kit.ts'

export const MAX_JSON_BYTES = 4 * 1024 * 1024
export const MAX_ASSET_BYTES = 50 * 1024 * 1024

/** An error in the shape of the Content Lake's gateway errors (`{statusCode, error, message}`). */
export function gatewayError(status: number, error: string, message: string) {
  return new ContentLakeError(status, { statusCode: status, error, message }, message)
}

export async function readBody(request: Request, limit: number): Promise<Buffer> {
  try {
    return await readBoundedBody(request, limit)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw gatewayError(413, 'Request Entity Too Large', error.message)
    throw error
  }
}

export async function readJson(request: Request): Promise<unknown> {
  const text = (await readBody(request, MAX_JSON_BYTES)).toString('utf8')
  try {
    return JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON'
    throw new ContentLakeError(400, { error: { description: `Unable to parse the request body as JSON: ${reason}`, type: 'httpBadRequest' } }, reason)
  }
}
