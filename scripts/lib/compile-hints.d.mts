// Types for compile-hints.mjs.
export const COMPILE_HINT: string
export function firstLoadChunks(distDir: string): Set<string>
export function addCompileHints(distDir: string): string[]
