// Serves the production build as `next start` does (`node scripts/serve-site.mjs -p 3000 [-H host]`),
// with four things `next start` cannot do:
// - the request targets Next.js's router fails on with a 500 (`*`, `/%ff`) get 400 Bad Request, with the
//   site's security headers (see lib/request-target.mjs); an absolute-form target goes on as its path;
// - silent and slow clients are cut off (lib/site-server.mjs);
// - each HTML response's Content-Security-Policy is completed with the hashes of its inline scripts
//   (lib/complete-policy.mjs), and draft-mode requests (with our draft-access cookie) get the editors' policy;
// - compression, after that (Next.js's own is off: it would compress before the HTML could be read),
//   done once per version of each body (lib/compress-response.mjs);
// - the pages' Cache-Control says how long a CDN may keep them (lib/cdn-cache-control.mjs);
// - what Next.js marks as shareable is kept, finished, and sent again without Next.js until a publish
//   (lib/response-cache.mjs).
// It runs the same way from a checkout and from the standalone folder of the container image (where
// there is no next.config.ts): with the build's own copy of the configuration, as Next's standalone
// server.js does.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { contentSecurityPolicy, policySourcesFromEnv } from '../lib/content-security-policy.ts'
import { draftAccessFromCookieHeader, draftAccessSecret } from '../lib/draft-mode/access-cookie.ts'
import { serverConfigWarnings } from '../lib/server-config-warnings.ts'
import { securityHeaders } from '../lib/security-headers.ts'
import { cdnCacheControl } from './lib/cdn-cache-control.mjs'
import { completePolicyOfHtml } from './lib/complete-policy.mjs'
import { CompressionMemo, compressResponse, negotiateEncoding } from './lib/compress-response.mjs'
import { ResponseCache } from './lib/response-cache.mjs'
import { createSiteServer } from './lib/site-server.mjs'

process.env.NODE_ENV = 'production'
for (const warning of serverConfigWarnings()) console.error(`\n  ⚠️  WARNING: ${warning}\n`)
const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p', default: process.env.PORT || '3000' }, hostname: { type: 'string', short: 'H' } },
  strict: true,
})
const port = Number(values.port)
const distDir = process.env.NEXT_DIST_DIR || '.next'
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(join(distDir, 'required-server-files.json'), 'utf8')).config)
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
const { previewModeId } = JSON.parse(readFileSync(join(distDir, 'prerender-manifest.json'), 'utf8')).preview
const draftModePolicy = contentSecurityPolicy('site', sources, { draftMode: true })
const BYPASS_COOKIE = /^__prerender_bypass=/
/** True for a request in draft mode; a bypass cookie that is not this build's is dropped, so that
 *  next.config.ts's draft-mode header rule (it only checks the cookie is there) never applies to it. */
function inDraftMode(request) {
  const cookies = (request.headers.cookie ?? '').split(/;\s*/)
  if (cookies.includes(`__prerender_bypass=${previewModeId}`)) return draftAccessFromCookieHeader(request.headers.cookie, draftAccessSecret())
  if (cookies.some((cookie) => BYPASS_COOKIE.test(cookie))) request.headers.cookie = cookies.filter((cookie) => !BYPASS_COOKIE.test(cookie)).join('; ')
  return false
}
const compressionMemo = new CompressionMemo()
const responseCache = new ResponseCache({ negotiate: negotiateEncoding })

const server = createSiteServer(
  (request, response) => {
    if (responseCache.serve(request, response)) return
    // Innermost first: the policy is completed from the HTML, then the body compressed, then kept.
    responseCache.record(request, response)
    cdnCacheControl(response)
    compressResponse(request, response, compressionMemo)
    const draftMode = inDraftMode(request) && !request.url.startsWith('/studio')
    completePolicyOfHtml(request, response, draftMode ? draftModePolicy : null)
    handle(request, response)
  },
  { badRequestHeaders },
)
server.listen(port, values.hostname, () => console.log(`▲ Next.js production build at http://${values.hostname ?? 'localhost'}:${port}`))
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
