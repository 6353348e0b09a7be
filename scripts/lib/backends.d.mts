// Types for backends.mjs (plain JavaScript, run by the npm scripts), as far as TypeScript callers use it.
import type { BackendsConfig, Backends } from '@plume/local-twins/start'
export { BackendStartError, startBackends, supervise } from '@plume/local-twins/start'
export { freePort, isPortTaken, waitForHttp } from '@plume/local-twins/free-port'
export const SEED_DIR: string
export const SUPABASE_DIR: string
export const PID_DIR: string
export function localTwinsFor(env?: NodeJS.ProcessEnv, options?: { contentLake?: object; supabase?: object }): Pick<BackendsConfig, 'contentLake' | 'supabase'>
export type { Backends }
