// `npm run build`: Sanity TypeGen, `next build`, then the compile hints and the standalone folder made
// whole. Pages are prerendered from the Content Lake: with no hosted project, from the local one — the
// running one (npm start, the test command), or one started from .data/content-lake for the length of
// the build.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nextEnv from '@next/env'
import { addCompileHints } from './lib/chunk-compile-hints.ts'
import { addInlineStyleHashes } from './lib/inline-style-hashes.ts'
import { writeSiteStylesheet } from './lib/site-stylesheet.ts'
import { subsetFonts } from './lib/subset-fonts.ts'
import { lockBuild, runningSiteServers } from './lib/site-servers.ts'
import { exitAfterStopping, runToEnd } from './lib/supervisor.ts'

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.env.DO_NOT_TRACK = '1'
// The .env files as `next build` reads them: which Content Lake to start must agree with what it reads.
nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error })
const distDir = process.env.NEXT_DIST_DIR || '.next'
// A server of this checkout serving the folder would lose its files under it, its pages their scripts;
// two builds at once would write over each other (scripts/lib/site-servers.ts).
const serving = runningSiteServers(distDir)
if (serving.length > 0) {
  console.error(
    `[build] the site of this checkout serves ${distDir} on port ${[...new Set(serving.map(({ port }) => port))].join(', ')}: ` +
      'a build now would replace its files under it. Stop it first, or serve the same build a second time ' +
      'with `npm run serve -- -p <port>`.',
  )
  process.exit(1)
}
const lock = lockBuild(distDir)
if (!lock.acquired) {
  console.error(
    `[build] another build of this checkout (process ${lock.holder.pid}) is writing ${distDir}: wait for it to end.`,
  )
  process.exit(1)
}

async function step(command: string, args: string[]) {
  const { code } = await runToEnd(command, args)
  if (code !== 0) await exitAfterStopping(code)
}

// The test command runs TypeGen once before its lanes (PLUME_TYPEGEN_DONE), so the build does not
// rewrite the types while TypeScript reads them.
if (process.env.PLUME_TYPEGEN_DONE !== '1') await step('node', ['scripts/typegen.ts'])
// A build for hosted services (a container's) loads nothing of the twins, which are not installed there.
const stopTwins = servicesNamed(process.env) ? undefined : await twinsForTheBuild()

/** True when the environment names both services: nothing to start. */
function servicesNamed(env: NodeJS.ProcessEnv): boolean {
  return ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SUPABASE_URL'].every((name) => env[name]?.trim())
}

/**
 * Only the Content Lake: the build reads no Supabase (but inlines its URL and public key). The build reads
 * the twins as the site will, by the variables they hand over; resolves with what stops them.
 */
async function twinsForTheBuild(): Promise<() => Promise<void>> {
  const { siteVariables, startTwins, supabaseTwinUrl, twinsFor, TwinStartError } = await import('./lib/start-twins.ts')
  const { contentLake, supabase } = twinsFor(process.env, {
    contentLake: { dataDir: '.data/content-lake', webhook: false },
  })
  let twins: Awaited<ReturnType<typeof startTwins>> | undefined
  if (contentLake) {
    try {
      twins = await startTwins({ contentLake, reuseRunning: 'any-data', quiet: true })
    } catch (error) {
      await exitAfterStopping(1, String(error instanceof TwinStartError ? error.message : error))
    }
    if (!twins?.contentLake?.reused)
      console.log(`[build] started the local Content Lake on port ${contentLake.port} for the build`)
  }
  Object.assign(
    process.env,
    await siteVariables({ contentLake: twins?.contentLake, supabase: supabase && { url: supabaseTwinUrl(supabase) } }),
  )
  return async () => await twins?.stop()
}
// A build takes the content as it is now. Next's data cache (<distDir>/cache/fetch-cache), written by
// the last server that ran this build folder, keeps each answer until a publish revalidates its tag: it
// may hold content edited while no server was listening for the webhook, and the browser tests' build
// would otherwise prerender the last run's Studio edits, whose uploaded images the fresh Content Lake
// no longer has.
rmSync(join(distDir, 'cache', 'fetch-cache'), { recursive: true, force: true })
// The web fonts cut down to the site's characters (.fonts/, read by lib/fonts.ts).
for (const { target, before, after } of await subsetFonts())
  console.log(`[build] ${target}: ${(after / 1024).toFixed(1)} KiB (the package's ${(before / 1024).toFixed(1)} KiB)`)
// The whole stylesheet the pages link after their first screen (public/styles/, scripts/lib/site-stylesheet.ts).
const stylesheet = await writeSiteStylesheet()
console.log(`[build] ${stylesheet.href}: ${(stylesheet.bytes / 1024).toFixed(1)} KiB`)
await step('next', ['build'])
await stopTwins?.()

// Chrome compiles the chunks every prerendered page loads at once eagerly, in the background
// (scripts/lib/chunk-compile-hints.ts says why).
const hinted = addCompileHints(distDir)
console.log(`[build] compile hints added to ${hinted.length} first-load chunks in ${distDir}`)

// The stylesheets the pages inline, named by hash in the policy `next start` and the standalone server send.
const styleHashes = addInlineStyleHashes(distDir)
console.log(`[build] ${styleHashes.length} inline stylesheet(s) named by hash in the build's Content-Security-Policy`)

// Next's standalone folder holds the server and the modules it uses, but not the files it serves:
// `node .next/standalone/server.js` (docs/deploy.md) would answer 404 for every /_next/static file and
// public/ file. They go in, as Next's documentation says to do, so the folder runs as it is.
const standalone = join(distDir, 'standalone')
if (existsSync(standalone)) {
  const standaloneDist = join(standalone, distDir)
  rmSync(join(standaloneDist, 'static'), { recursive: true, force: true })
  cpSync(join(distDir, 'static'), join(standaloneDist, 'static'), { recursive: true })
  if (existsSync('public')) cpSync('public', join(standalone, 'public'), { recursive: true })
  // What the build read from the Content Lake, as `next start` finds it beside the build: a server
  // started from this folder during an outage then has the menu and settings its pages were made with,
  // and answers an address no page had with the 404 rather than an error (docs/deploy.md).
  const fetchCache = join(distDir, 'cache', 'fetch-cache')
  rmSync(join(standaloneDist, 'cache', 'fetch-cache'), { recursive: true, force: true })
  if (existsSync(fetchCache)) cpSync(fetchCache, join(standaloneDist, 'cache', 'fetch-cache'), { recursive: true })
  // Next copies the project's package.json whole: only what Node reads of it stays (the module type),
  // not the scripts, the workspace of the twins or the development dependencies it names.
  const manifest = JSON.parse(readFileSync(join(standalone, 'package.json'), 'utf8')) as Record<string, unknown>
  const { name, version, private: isPrivate, type } = manifest
  writeFileSync(
    join(standalone, 'package.json'),
    `${JSON.stringify({ name, version, private: isPrivate, type }, null, 2)}\n`,
  )
  console.log(`[build] ${standalone} holds the static files, public/ and the build's reads: it runs as it is`)
}
