/*
 * Next runs register() once per server process when it starts (and in each worker of a build, where
 * it stays quiet: the build is not serving anything). Whatever serves the build — our server
 * (server/main.ts), `next start` or the standalone folder's server.js — says here, loudly, what is wrong
 * with its security settings (lib/server-config-warnings.ts). Here rather than in server/main.ts: the
 * warnings need lib/backends.ts (which Sanity is configured), which the production server must not load.
 * It also checks once, without holding the start, that the services it reads at run time answer
 * (lib/service-reachability.ts), and names the variable of each one that does not. A service setting
 * it cannot read at all (a URL without its scheme) stops the process with what to fix: no page could be
 * rendered with it, and a server that says Ready and then answers 500 to every address passes for started.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return
  try {
    await import('./lib/site-backends')
  } catch (error) {
    console.error(`\n  ✖ ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
  const { serverConfigWarnings } = await import('./lib/server-config-warnings')
  for (const warning of serverConfigWarnings()) console.error(`\n  ⚠️  WARNING: ${warning}\n`)
  const { unreachableServices } = await import('./lib/service-reachability')
  void unreachableServices().then((lines) => {
    for (const line of lines) console.error(`[services] ${line}`)
  })
}
