import { backendsFromEnv, type Backends } from './backends.ts'

/*
 * This build's services, read once from its environment (lib/backends.ts says how). Apart from the
 * parsing so that next.config.ts, which `next start` loads with none of the public variables set (the
 * build inlined them into the code that reads them here), never evaluates it.
 */

/** This build's services. Each variable is read by its full name so Next.js inlines it in the browser. */
export const backends: Backends = backendsFromEnv({
  NEXT_PUBLIC_SANITY_PROJECT_ID: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID,
  NEXT_PUBLIC_SANITY_DATASET: process.env.NEXT_PUBLIC_SANITY_DATASET,
  NEXT_PUBLIC_SANITY_API_VERSION: process.env.NEXT_PUBLIC_SANITY_API_VERSION,
  NEXT_PUBLIC_SANITY_API_HOST: process.env.NEXT_PUBLIC_SANITY_API_HOST,
  NEXT_PUBLIC_SANITY_CDN_URL: process.env.NEXT_PUBLIC_SANITY_CDN_URL,
  // Server only: undefined in a browser, where nothing reads serverApiUrl.
  SANITY_PROJECT_API_URL: process.env.SANITY_PROJECT_API_URL,
  NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL,
  NEXT_PUBLIC_SUPABASE_ANON_KEY: process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
})
