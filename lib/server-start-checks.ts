import { BackendsConfigError } from './backends.ts'

/*
 * What a server that runs the build checks as it starts (instrumentation.ts: ours, `next start` or the
 * standalone folder's server.js). A service setting it cannot read at all (a URL without its scheme)
 * stops the process with what to fix: no page could be rendered with it, and a server that says Ready
 * and then answers 500 to every address passes for started. What is wrong with its security settings is
 * said loudly (lib/server-config-warnings.ts); whether the services it reads at run time answer is
 * checked once, without holding the start (lib/service-reachability.ts), naming the variable of each
 * one that does not. Node only: instrumentation.ts loads it for the Node runtime alone.
 */
export async function checkAtServerStart() {
  try {
    await import('./site-backends')
  } catch (error) {
    if (!(error instanceof BackendsConfigError)) throw error
    console.error(`\n  ✖ ${error.message}\n`)
    process.exit(1)
  }
  const { serverConfigWarnings } = await import('./server-config-warnings')
  for (const warning of serverConfigWarnings()) console.error(`\n  ⚠️  WARNING: ${warning}\n`)
  const { unreachableServices } = await import('./service-reachability')
  void unreachableServices().then((lines) => {
    for (const line of lines) console.error(`[services] ${line}`)
  })
}
