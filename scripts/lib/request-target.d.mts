// Types for request-target.mjs (plain JavaScript so the npm scripts run without a TypeScript step).
export function malformedRequestTarget(target: string | undefined): string | null
export function originForm(target: string): string
