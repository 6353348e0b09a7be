// Types for e2e-ports.mjs.
export function e2eServers(): { baseURL: string; env: Record<string, string> } | null
