// `npm run serve -- -p <port>`: our server (server/main.ts) alone over the last build, for a second
// replica by hand or a look at the build. As `npm start` does, the services the environment does not
// name (no Sanity project id; no Supabase URL, or a loopback one) are the local twins: it hands the
// server the variables of those another `npm start` runs (what `npm start -- --print-env` prints), so a
// second replica works offline as the first one does. The server itself reads variables only. With
// none running it says which command starts them, and serves anyway: what the build holds is still
// served, and a service may come back.
import nextEnv from '@next/env'
import { listenOptions } from '../server/listen-options.ts'
import { runningTwinVariables } from './lib/running-twins.ts'
import { buildInProgress, registerSiteServer } from './lib/site-servers.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error })

const { variables, missing, silent, needed } = await runningTwinVariables(process.env)
Object.assign(process.env, variables)
const notRunning = missing.filter((twin) => !silent.includes(twin))
if (silent.length)
  console.error(
    `[serve] not answering: ${silent.join('; ')}. A process holds the port and says nothing (paused, or ` +
      'stuck): resume or restart it; serving what the build holds meanwhile.',
  )
if (notRunning.length)
  console.error(
    `[serve] not running: ${notRunning.join('; ')}. Start the local services with \`npm start\`, or set the ` +
      "services' variables (docs/configuration.md); serving what the build holds meanwhile.",
  )
else if (needed > 0 && silent.length === 0)
  console.log(
    `[serve] the site reads the local services \`npm start\` runs (${Object.keys(variables).length} variables)`,
  )

// A build of this checkout waits until this server stops, and this server for a build under way
// (scripts/lib/site-servers.ts).
const distDir = process.env.NEXT_DIST_DIR || '.next'
const building = buildInProgress(distDir)
if (building) {
  console.error(
    `[serve] a build of this checkout (process ${building.pid}) is writing ${distDir}: serve it once it ends.`,
  )
  process.exit(1)
}
registerSiteServer({ port: listenOptions().port, distDir })
await import('../server/main.ts')
