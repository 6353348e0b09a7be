// Types for compress-response.mjs (plain JavaScript so the production server runs without a TypeScript step).
import type { IncomingMessage, ServerResponse } from 'node:http'
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | null
export class CompressionMemo {
  constructor(maxBytes?: number)
  readonly bytes: number
  readonly entries: Map<string, Buffer>
  get(encoding: 'br' | 'gzip', body: Buffer): Buffer
}
export function compressResponse(request: IncomingMessage, response: ServerResponse, memo: CompressionMemo): void
