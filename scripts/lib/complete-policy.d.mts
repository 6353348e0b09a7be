// Types for complete-policy.mjs (plain JavaScript so the production server runs without a TypeScript step).
import type { IncomingMessage, ServerResponse } from 'node:http'
export function completePolicyOfHtml(request: IncomingMessage, response: ServerResponse, draftModePolicy: string | null): void
