// Types for build-stamp.mjs (plain JavaScript, run by the npm scripts).
export function buildIsCurrent(distDir: string): boolean
export function writeBuildStamp(distDir: string, startedAt: number): void
