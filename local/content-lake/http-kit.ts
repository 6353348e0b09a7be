import { BodyTooLargeError, readBody as readBoundedBody, type Request } from '../http-kit.ts'
import { ContentLakeError } from './content-lake-error.ts'

/*
 * The Content Lake's side of the shared kit (../http-kit.ts): its body limits, and bad bodies answered
 * in the shape of the Content Lake's gateway errors.
 */
export { bearerToken, header, send, sendJson, type Request, type Response } from '../http-kit.ts'

export const MAX_JSON_BYTES = 4 * 1024 * 1024
export const MAX_ASSET_BYTES = 50 * 1024 * 1024
/**
 * JSON nested deeper than this is refused (400) before anything walks it: groq-js, structuredClone,
 * JSON.stringify and @sanity/mutator recurse, and 20,000 levels overflow their stack (issue #20).
 * Real documents and parameters stay far below (Portable Text is about ten levels).
 */
export const MAX_JSON_DEPTH = 100

/** An error in the shape of the Content Lake's gateway errors (`{statusCode, error, message}`). */
export function gatewayError(status: number, error: string, message: string) {
  return new ContentLakeError(status, { statusCode: status, error, message }, message)
}

export async function readBody(request: Request, limit: number, tooLarge?: string): Promise<Buffer> {
  try {
    return await readBoundedBody(request, limit)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw gatewayError(413, 'Request Entity Too Large', tooLarge ?? error.message)
    throw error
  }
}

/** How deeply a parsed JSON value nests, counted without recursion (the value may be 20,000 deep). */
export function jsonDepth(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > MAX_JSON_DEPTH) return deepest // no need to walk the rest
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

export async function readJson(request: Request, limit = MAX_JSON_BYTES, tooLarge?: string): Promise<unknown> {
  const text = (await readBody(request, limit, tooLarge)).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text) // V8 parses iteratively: any depth parses, the check below refuses it
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON'
    throw new ContentLakeError(400, { error: { description: `Unable to parse the request body as JSON: ${reason}`, type: 'httpBadRequest' } }, reason)
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    const description = `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`
    throw new ContentLakeError(400, { error: { description, type: 'httpBadRequest' } }, description)
  }
  return value
}
