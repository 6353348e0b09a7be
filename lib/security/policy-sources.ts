import { backendsFromEnv, type BackendsEnv } from '../backends.ts'
import type { PolicySources } from './content-security-policy.ts'

/*
 * Where the policy's sources come from: hosted Sanity and Supabase when configured, the local twins
 * otherwise (decided by lib/backends.ts, as for the rest of the site). Apart from
 * content-security-policy.ts because of that import: next.config.ts and the pages read it, the
 * production server never does (its container image holds neither lib/backends.ts nor zod: it takes
 * the policy Next sends and completes it).
 */

export function policySourcesFromEnv(env: BackendsEnv & { NODE_ENV?: string } = process.env): PolicySources {
  const { sanity, supabase } = backendsFromEnv(env)
  return {
    supabaseUrl: supabase.url,
    sanityApiOrigins: sanity.apiOrigins,
    // Images are sent unoptimized, straight from the CDN (or the local Content Lake's plain-HTTP side).
    sanityAssetOrigins: sanity.assetOrigins,
    dev: env.NODE_ENV === 'development',
  }
}
