// Types for hold-response.mjs (plain JavaScript so the production server runs without a TypeScript step).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
export function holdResponse(response: ServerResponse, steps: { decide: (headers?: OutgoingHttpHeaders) => boolean; finish: (body: Buffer) => Buffer }): void
export function contentTypeOf(response: ServerResponse, headers?: OutgoingHttpHeaders): string
export function isBodyless(request: IncomingMessage, response: ServerResponse): boolean
