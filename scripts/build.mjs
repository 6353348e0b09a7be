// `npm run build`: Sanity TypeGen, `next build`, then the compile hints. Pages are prerendered from
// the Content Lake: with no hosted project, from the local one — the running one (npm start, the test
// command), or one started from .data/content-lake for the length of the build.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { BackendStartError, localTwinsFor, startBackends } from './lib/backends.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

let backends
async function step(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' })
  if (result.status !== 0) {
    await backends?.stop()
    process.exit(result.status ?? 1)
  }
}

// The test command runs TypeGen once before its lanes (PLUME_TYPEGEN_DONE), so the build does not
// rewrite the types while TypeScript reads them.
if (process.env.PLUME_TYPEGEN_DONE !== '1') await step('node', ['scripts/typegen.mjs'])
// Only the Content Lake: the build reads no Supabase.
const { contentLake } = localTwinsFor(process.env, { contentLake: { dataDir: '.data/content-lake', webhook: false } })
if (contentLake) {
  try {
    backends = await startBackends({ contentLake, reuseRunning: true, quiet: true })
  } catch (error) {
    console.error(error instanceof BackendStartError ? error.message : error)
    process.exit(1)
  }
  if (!backends.contentLake.reused) console.log(`[build] started the local Content Lake on port ${contentLake.port} for the build`)
}
// A build takes the content as it is now. Next's data cache (<distDir>/cache/fetch-cache), written by
// the last server that ran this build folder, keeps each answer until a publish revalidates its tag: it
// may hold content edited while no server was listening for the webhook, and the browser tests' build
// would otherwise prerender the last run's Studio edits, whose uploaded images the fresh Content Lake
// no longer has.
rmSync(`${process.env.NEXT_DIST_DIR || '.next'}/cache/fetch-cache`, { recursive: true, force: true })
await step('next', ['build'])
await step('node', ['scripts/compile-hints.mjs'])
await backends?.stop()
