// Types for observatory.mjs.
export const OBSERVATORY_VERSION: string
export function installObservatory(dir?: string): Promise<string>
