// Types for response-cache.mjs (plain JavaScript so the production server runs without a TypeScript step).
import type { IncomingMessage, ServerResponse } from 'node:http'
export class ResponseCache {
  constructor(options?: { maxBytes?: number; negotiate?: (acceptEncoding: string | string[] | undefined) => string | null; now?: () => number })
  readonly bytes: number
  clear(): void
  serve(request: IncomingMessage, response: ServerResponse): boolean
  record(request: IncomingMessage, response: ServerResponse): void
}
