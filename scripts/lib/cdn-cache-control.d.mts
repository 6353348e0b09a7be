// Types for cdn-cache-control.mjs (plain JavaScript so the production server runs without a TypeScript step).
import type { ServerResponse } from 'node:http'
export const CDN_MAX_AGE: number
export const STALE_WHILE_REVALIDATE: number
export function cdnCachePolicy<T>(value: T): T | string
export function cdnCacheControl(response: ServerResponse): void
