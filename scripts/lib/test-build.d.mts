// Types for test-build.mjs.
export const TEST_DIST_DIR: string
export function lastTestBuildPorts(): { supabase?: number; site?: number; lake?: number }
export function prepareTestBuild(
  buildEnv: Record<string, string>,
  ports: { supabase: number; site: number; lake: number },
  runBuild: (env: NodeJS.ProcessEnv) => Promise<boolean>,
  options?: { log?: (message: string) => void },
): Promise<boolean>
export function copyTestBuildForNextStart(distDir?: string): string
