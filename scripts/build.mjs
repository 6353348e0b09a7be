// `npm run build`: Sanity TypeGen, `next build`, then the compile hints. Pages are prerendered from
// the Content Lake: with no hosted project, from the local one — the running one (npm start, the test
// command), or one started from .data/content-lake for the length of the build.
import { spawnSync } from 'node:child_process'
import { contentLakePortOrExit, localContentLakePort, startContentLake, usesLocalContentLake } from './lib/content-lake.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'

function step(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' })
  if (result.status !== 0) {
    stop()
    process.exit(result.status ?? 1)
  }
}

let lake
function stop() {
  if (lake && lake.exitCode === null) lake.kill('SIGTERM')
}

step('node', ['scripts/typegen.mjs'])
if (usesLocalContentLake()) {
  const port = localContentLakePort()
  if ((await contentLakePortOrExit(port)) === 'free') {
    console.log(`[build] starting the local Content Lake on port ${port} for the build`)
    lake = await startContentLake(['--port', String(port), '--no-webhook'], { stdio: 'ignore' })
  }
}
step('next', ['build'])
step('node', ['scripts/compile-hints.mjs'])
stop()
