// Serves the production build as `next start` does (`node scripts/serve-site.mjs -p 3000 [-H host]`),
// with four things `next start` cannot do:
// - the request targets Next.js's router fails on with a 500 (`*`, `/%ff`) get 400 Bad Request, with the
//   site's security headers (see lib/request-target.mjs); an absolute-form target goes on as its path;
// - silent and slow clients are cut off (lib/site-server.mjs);
// - each HTML response's Content-Security-Policy is completed with the hashes of its inline scripts
//   (lib/complete-policy.mjs), and draft-mode requests (with our draft-access cookie) get the editors' policy;
// - compression, after that (Next.js's own is off: it would compress before the HTML could be read).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import compression from 'compression'
import { contentSecurityPolicy, policySourcesFromEnv } from '../lib/content-security-policy.ts'
import { draftAccessFromCookieHeader, draftAccessSecret } from '../lib/draft-mode/access-cookie.ts'
import { serverConfigWarnings } from '../lib/server-config-warnings.ts'
import { securityHeaders } from '../lib/security-headers.ts'
import { completePolicyOfHtml } from './lib/complete-policy.mjs'
import { createSiteServer } from './lib/site-server.mjs'

process.env.NODE_ENV = 'production'
for (const warning of serverConfigWarnings()) console.error(`\n  ⚠️  WARNING: ${warning}\n`)
const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p', default: process.env.PORT || '3000' }, hostname: { type: 'string', short: 'H' } },
  strict: true,
})
const port = Number(values.port)
const { default: next } = await import('next')
const app = next({ dev: false, dir: process.cwd(), hostname: values.hostname ?? 'localhost', port })
await app.prepare()
const handle = app.getRequestHandler()
const sources = policySourcesFromEnv()
const badRequestHeaders = {
  ...Object.fromEntries(securityHeaders.map(({ key, value }) => [key, value])),
  'Content-Security-Policy': contentSecurityPolicy('site', sources),
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'no-store',
}

// Draft mode is on when the request carries Next.js's bypass cookie with this build's preview id (the
// check Next.js itself makes) and a valid draft-access cookie (the pages' check: lib/draft-mode/);
// only then may a page get the editors' policy. Same process as the pages: the same secret.
const { previewModeId } = JSON.parse(readFileSync(join(process.env.NEXT_DIST_DIR || '.next', 'prerender-manifest.json'), 'utf8')).preview
const draftModePolicy = contentSecurityPolicy('site', sources, { draftMode: true })
const inDraftMode = (request) =>
  (request.headers.cookie ?? '').split(/;\s*/).includes(`__prerender_bypass=${previewModeId}`) && draftAccessFromCookieHeader(request.headers.cookie, draftAccessSecret())
const compress = compression()

const server = createSiteServer(
  (request, response) =>
    compress(request, response, () => {
      const draftMode = inDraftMode(request) && !request.url.startsWith('/studio')
      completePolicyOfHtml(request, response, draftMode ? draftModePolicy : null)
      handle(request, response)
    }),
  { badRequestHeaders },
)
server.listen(port, values.hostname, () => console.log(`▲ Next.js production build at http://${values.hostname ?? 'localhost'}:${port}`))
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
