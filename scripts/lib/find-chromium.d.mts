// Types for find-chromium.mjs.
export const CHROMIUM_ARGS: string[]
export function findChromium(options?: { install?: boolean; kind?: 'browser' | 'headless-shell' }): string
