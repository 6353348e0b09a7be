// Types for free-port.mjs (plain JavaScript so the npm scripts run without a TypeScript step).
export function freePort(preferred?: number): Promise<number>
export function isPortTaken(port: number, host?: string): Promise<boolean>
export function waitForHttp(url: string, options?: { timeoutMs?: number; intervalMs?: number }): Promise<void>
