// Types for build-stamp.mjs (plain JavaScript, run by the npm scripts).
export function buildInputs(env?: NodeJS.ProcessEnv): string
export function buildIsCurrent(distDir: string, env?: NodeJS.ProcessEnv): boolean
export function forgetBuild(distDir: string): void
export function writeBuildStamp(distDir: string, inputs: string): void
