import path from 'node:path'
import type { NextConfig } from 'next'
import { PHASE_PRODUCTION_BUILD } from 'next/constants'
import createNextIntlPlugin from 'next-intl/plugin'
import { contentSecurityPolicy, type PolicyKind } from './lib/security/content-security-policy.ts'
import { policySourcesFromEnv } from './lib/security/policy-sources.ts'
import { securityHeaders } from './lib/security/security-headers.ts'

/*
 * First path parts that are not French pages and that the file system alone does not answer: English,
 * Next internals, the API (unknown /api paths stay plain 404s) and the Studio's catch-all. The French
 * rewrite runs after the file system (afterFiles), so static routes (the inbox, sitemap.xml, robots.txt,
 * icon.svg) are served before it and need no entry. This list reaches every visitor in the build
 * manifest (/_next/static/<build id>/_buildManifest.js): it must never name the hidden inbox.
 */
const UNLOCALISED = ['en', 'fr', '_next', 'api', 'studio']

const withNextIntl = createNextIntlPlugin('./lib/i18n/request.ts')

const nextConfig: NextConfig = {
  // The test command builds into its own folder so it never clobbers the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // Next's own cache, which shares published changes across replicas when REDIS_URL is set at run time
  // (lib/cache/shared-cache-handler.mjs; docs/deploy.md, Several replicas). Absolute: the build records
  // it relative to its output folder, for the standalone folder and the container.
  cacheHandler: path.join(process.cwd(), 'lib', 'cache', 'shared-cache-handler.mjs'),
  // The production server (server/main.ts) compresses, after it has read each page's inline scripts
  // to complete its Content-Security-Policy.
  compress: false,
  reactStrictMode: true,
  // The test command type-checks the whole project itself (tsc, beside the build): its build skips
  // Next's second pass over the same files. Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.PLUME_TYPES_CHECKED_APART === '1' },
  experimental: {
    // The stylesheet goes inside each page's HTML, as a <style> element: a phone paints the words as
    // soon as the HTML arrives, instead of after a second round trip for a render-blocking 39 KB file
    // (6.8 KB compressed). The policy names it by hash (scripts/lib/inline-style-hashes.ts,
    // server/policy-stage.ts). Client-side navigations still load it as a file, once.
    inlineCss: true,
    // Route prediction (on by default in Next 16.4) prints, in every page's RSC payload, the static
    // siblings of the [locale] segment: every top-level static route of the app, route groups and root
    // layouts notwithstanding, so the hidden inbox's path was on every public page (issue #20). Off, the
    // payload carries none and the router asks the server for a URL it has not prefetched.
    optimisticRouting: false,
    // Turbopack keeps its build cache on disk (on by default): a rebuild after an edit compiles in 26 s
    // instead of 61 s here, but writing it costs a fresh build 34 s. PLUME_BUILD_CACHE=0 skips it where
    // no later build will read it (the test command sets it under CI, on a clone that is thrown away).
    turbopackFileSystemCacheForBuild: process.env.PLUME_BUILD_CACHE !== '0',
    // Source maps of the server's code (the browser's are never published): 69 MB beside 22 MB of
    // code, read only to map an error's stack. PLUME_SOURCE_MAPS=0 skips them where no one reads a stack
    // trace: the browser tests' builds (a build 115 → 104 CPU-s here, and the copies the test command
    // makes of it four times smaller).
    turbopackSourceMaps: process.env.PLUME_SOURCE_MAPS !== '0',
  },
  // The share pictures' font is read from disk by their routes.
  outputFileTracingIncludes: { '/*': ['./node_modules/@fontsource/fraunces/files/fraunces-latin-600-normal.woff'] },
  images: {
    remotePatterns: [{ protocol: 'https', hostname: 'cdn.sanity.io' }],
  },
  /*
   * French is served without a prefix: every path that is not English or internal, and that no
   * static route answers, is rewritten to the [locale]=fr pages, and /fr/... redirects to the
   * unprefixed URL. This is what next-intl's
   * middleware would do, done by the router instead: Next 16.2.6+ turns middleware rewrites into
   * 307 loops under `next start` (vercel/next.js#94342).
   */
  async rewrites() {
    return {
      beforeFiles: [{ source: '/', destination: '/fr' }],
      afterFiles: [{ source: `/:path((?!(?:${UNLOCALISED.join('|')})(?:/|$)).+)`, destination: '/fr/:path' }],
      fallback: [],
    }
  },
  async redirects() {
    return [
      { source: '/fr', destination: '/', permanent: true },
      { source: '/fr/:path*', destination: '/:path*', permanent: true },
    ]
  },
  async headers() {
    const sources = policySourcesFromEnv()
    // The portable policy: it lets the pages' own inline scripts run wherever Next serves the build
    // alone; server/main.ts replaces 'unsafe-inline' with the hashes of each page's scripts.
    const csp = (kind: PolicyKind, draftMode = false) => ({
      key: 'Content-Security-Policy',
      value: contentSecurityPolicy(kind, sources, { portable: true, draftMode }),
    })
    const noStore = { key: 'Cache-Control', value: 'private, no-store' }
    return [
      // The last matching rule wins for a header both set: the Studio's policy replaces the site's.
      { source: '/:path*', headers: [...securityHeaders, csp('site')] },
      // Editors in draft mode (Next's bypass cookie): the overlays' styles and live updates. Without
      // our server in front Next gives this to any request with that cookie, valid or not: it only
      // loosens the policy of the one who sent it. server/main.ts lets the cookie reach Next only when
      // it is this build's and comes with a valid draft-access cookie (server/draft-gate.ts), so there
      // this rule is how an editor's page gets the editors' policy, completed with its hashes.
      { source: '/:path*', has: [{ type: 'cookie', key: '__prerender_bypass' }], headers: [csp('site', true)] },
      // Whatever gets that policy is never kept by a CDN for anyone else, in every way of serving the
      // build: Next keeps a Cache-Control set here on pages and routes (it sends `s-maxage` on a static
      // page when the cookie is not this build's). The build's files are left out: they carry no
      // policy a page runs under, and editors' browsers keep them as everybody's do.
      {
        source: '/:path((?!_next/static/).*)',
        has: [{ type: 'cookie', key: '__prerender_bypass' }],
        headers: [noStore],
      },
      { source: '/studio/:path*', headers: [csp('studio')] },
      // The inbox and the Studio must never be indexed, even if someone links to them; the inbox and
      // the API are never kept by a browser or a CDN.
      { source: '/admin-panel-2024', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }, noStore] },
      { source: '/api/:path*', headers: [noStore] },
      { source: '/studio/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }] },
    ]
  },
}

/*
 * A self-contained server folder (.next/standalone, with only the traced node_modules; scripts/build.ts
 * adds the static files) for the container image and `node .next/standalone/server.js`, made by every
 * build. Only the build reads `output`: `next start` serving the same build is told nothing of it, as it
 * would otherwise warn that it does not work with a standalone build, which it does.
 */
export default function config(phase: string): NextConfig {
  return withNextIntl({ ...nextConfig, output: phase === PHASE_PRODUCTION_BUILD ? 'standalone' : undefined })
}
