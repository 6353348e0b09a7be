// Types for first-load-scripts.mjs.
export function firstLoadScripts(html: string): string[]
