// The production server: serves the build as `next start` does (`node server/main.ts [-p PORT] [-H host]`,
// PORT by default, then 3000; the build in NEXT_DIST_DIR, by default .next), with what `next start`
// cannot do:
// - request targets Next.js's router fails on with a 500 (`*`, `/%ff`) get 400 Bad Request; an
//   absolute-form target goes on as its path; silent and slow clients are cut off (http-server.ts);
// - Next's draft-mode cookie, however written, reaches Next.js only with a valid draft-access cookie
//   (draft-gate.ts);
// - each response goes through the pipeline (response-pipeline.ts): the page's policy completed with
//   its inline scripts' hashes, compression, the CDN's Cache-Control, a short memory cache that a
//   verified publish empties (this replica's, or another's when REDIS_URL is set) and that lets
//   concurrent misses share one render.
// It runs the same way from a checkout and from the standalone folder of the container image (where
// there is no next.config.ts): with the build's own copy of the configuration, as Next's standalone
// server.js does. Its imports stay within server/, lib/security/, Node and `next` (two of Next's own
// files among them: cookies are read as Next reads them, lib/security/request-cookies.ts): the image
// holds nothing else of the project.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { draftModeGate } from './draft-gate.ts'
import { createSiteServer } from './http-server.ts'
import { listenOptions } from './listen-options.ts'
import { createResponsePipeline } from './response-pipeline.ts'

// Before Next.js loads: it reads both when its modules are first imported. (Assigned through
// Object.assign: Next's types declare NODE_ENV read-only, which it is for the site's own code.)
Object.assign(process.env, { NODE_ENV: 'production' })
const { port, hostname } = listenOptions()
const distDir = process.env.NEXT_DIST_DIR || '.next'
const fromBuild = (name: string): unknown => JSON.parse(readFileSync(join(distDir, name), 'utf8'))
if (!existsSync(join(distDir, 'required-server-files.json'))) {
  // A checkout never built (`npm run serve` first), or NEXT_DIST_DIR naming another folder: said in a
  // line rather than a stack trace.
  console.error(
    `[server] no build in ${resolve(distDir)}: build the site first (\`npm run build\`, or ` +
      '`npm start`, which builds and serves), or set NEXT_DIST_DIR to the folder that holds it.',
  )
  process.exit(1)
}
const { config } = fromBuild('required-server-files.json') as { config: unknown }
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config)

const { default: next } = await import('next')
const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port })
await app.prepare()
const handle = app.getRequestHandler()

// The check Next.js itself makes of its bypass cookie (this build's preview id), and ours after it.
const { preview } = fromBuild('prerender-manifest.json') as { preview: { previewModeId: string } }
const draftGate = draftModeGate(preview.previewModeId)
// A publish (the webhook here, or another replica's through REDIS_URL) empties the memory cache: Next's
// cache handler says so on the process.
const pipeline = createResponsePipeline({ publishes: process })

const server = createSiteServer((request, response) => {
  draftGate(request)
  pipeline(request, response, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Next.js answers its own errors; one that escapes it still gets an answer, and the server lives on.
      console.error(error)
      if (!response.headersSent) response.statusCode = 500
      response.end()
    })
  })
})
server.listen(port, hostname, () =>
  console.log(`▲ Next.js production build at http://${hostname ?? 'localhost'}:${port}`),
)
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
