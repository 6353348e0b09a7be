import path from 'node:path'
import type { NextConfig } from 'next'
import { PHASE_PRODUCTION_BUILD } from 'next/constants'
import createNextIntlPlugin from 'next-intl/plugin'
import { contentSecurityPolicy, type PolicyKind } from './lib/security/content-security-policy.ts'
import { policySourcesFromEnv } from './lib/security/policy-sources.ts'
import { fileHeaders, securityHeaders } from './lib/security/security-headers.ts'

/*
 * First path parts that are not French pages and that no static route answers (the French rewrite runs
 * after the file system). Every visitor gets this list in the build manifest: never name the inbox here.
 */
const UNLOCALISED = ['en', 'fr', '_next', 'api', 'studio']

const withNextIntl = createNextIntlPlugin('./lib/i18n/request.ts')

const nextConfig: NextConfig = {
  // The test command builds into its own folder so it never clobbers the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // Next's cache, shared across replicas when REDIS_URL is set at run time (docs/deploy.md). Absolute:
  // the build records it relative to its output folder.
  cacheHandler: path.join(process.cwd(), 'lib', 'cache', 'shared-cache-handler.mjs'),
  // Our server compresses, once it has read each page's inline scripts for the policy (docs/server.md).
  compress: false,
  reactStrictMode: true,
  // The test command runs tsc beside its build (docs/testing.md); every other build checks types.
  typescript: { ignoreBuildErrors: process.env.PLUME_TYPES_CHECKED_APART === '1' },
  experimental: {
    // The stylesheet inside each page's HTML: no render-blocking round trip on a phone
    // (docs/performance.md); the policy names it by hash. The site's pages inline only their first
    // screen's rules (app/first-screen.css) and link the whole sheet below it (components/layout/site-stylesheet.tsx).
    inlineCss: true,
    // Route prediction printed every static route, the hidden inbox's included, in each page's RSC
    // payload (docs/security.md).
    optimisticRouting: false,
    // Turbopack's build cache on disk, except where no later build reads it (PLUME_BUILD_CACHE=0: the
    // test command under CI; docs/testing.md).
    turbopackFileSystemCacheForBuild: process.env.PLUME_BUILD_CACHE !== '0',
    // Server source maps, except where no one reads a stack trace (PLUME_SOURCE_MAPS=0: the browser
    // tests' builds; docs/testing.md).
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
    // Every path but the build's own files, which get the headers of a file (security-headers.ts): Next's,
    // and the site's whole stylesheet (scripts/lib/site-stylesheet.ts), named after its content.
    const notBuildFiles = '/:path((?!_next/static/|styles/).*)'
    const immutable = { key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }
    return [
      // The last matching rule wins for a header both set: the Studio's policy replaces the site's.
      { source: notBuildFiles, headers: [...securityHeaders, csp('site')] },
      { source: '/_next/static/:path*', headers: fileHeaders },
      { source: '/styles/:path*', headers: [...fileHeaders, immutable] },
      // Editors in draft mode (Next's bypass cookie): the overlays' styles and live updates. Without
      // our server in front Next gives this to any request with that cookie, valid or not: it only
      // loosens the policy of the one who sent it. server/main.ts lets the cookie reach Next only when
      // it is this build's and comes with a valid draft-access cookie (server/draft-gate.ts), so there
      // this rule is how an editor's page gets the editors' policy, completed with its hashes.
      { source: notBuildFiles, has: [{ type: 'cookie', key: '__prerender_bypass' }], headers: [csp('site', true)] },
      // Whatever gets that policy is never kept by a CDN for anyone else, in every way of serving the
      // build: Next keeps a Cache-Control set here on pages and routes (it sends `s-maxage` on a static
      // page when the cookie is not this build's). The build's files are left out: they carry no
      // policy a page runs under, and editors' browsers keep them as everybody's do.
      { source: notBuildFiles, has: [{ type: 'cookie', key: '__prerender_bypass' }], headers: [noStore] },
      { source: '/studio/:path*', headers: [csp('studio')] },
      // The inbox and the Studio must never be indexed, even if someone links to them; the inbox and
      // the API are never kept by a browser or a CDN.
      { source: '/admin-panel-2024/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }, noStore] },
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
