// Types for standalone-folder.mjs (plain JavaScript, run by the test command).
export function runtimeStage(dockerfile?: string): { copies: { source: string; target: string }[]; cmd: string[] }
export function makeStandaloneFolder(destination: string, options?: { distDir?: string }): { cmd: string[] }
