/*
 * Next runs register() once per server process when it starts (and in each worker of a build, where
 * it stays quiet: the build is not serving anything). Whatever serves the build — our server
 * (server/main.ts), `next start` or the standalone folder's server.js — checks its settings and its
 * services here (lib/server-start-checks.ts). Here rather than in server/main.ts: the checks need
 * lib/backends.ts (which Sanity is configured), which the production server must not load. Behind the
 * runtime's test, so that the Edge build of this file leaves the Node-only module out.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    const { checkAtServerStart } = await import('./lib/server-start-checks')
    await checkAtServerStart()
  }
}
