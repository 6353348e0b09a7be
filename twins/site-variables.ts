import { LOCAL_PROJECT_ID } from './content-lake/content-lake-settings.ts'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from './supabase/supabase-cli-settings.ts'

/*
 * What the twins hand to the site, as `supabase start` prints its keys: the very variables a hosted
 * deployment sets (README, Configure), with the twins' addresses and secrets. The site reads them as it
 * reads a hosted project's and never knows the difference.
 */

/** The secrets the local Content Lake made for its data folder (a new folder, new ones). */
export type ContentLakeCredentials = { viewerToken: string; webhookSecret: string }

/** The Content Lake's public addresses: known before it starts (a build inlines them). */
export function contentLakeAddresses(port: number): Record<string, string> {
  return {
    NEXT_PUBLIC_SANITY_PROJECT_ID: LOCAL_PROJECT_ID,
    // Browsers (the Studio) reach the HTTP/2 side by name: `<projectId>.localhost` is loopback to them.
    NEXT_PUBLIC_SANITY_API_HOST: `https://localhost:${port}`,
    // The same port answers plain HTTP, which the site's server (Node resolves no `*.localhost`) and
    // <img> use, without a certificate to trust.
    SANITY_PROJECT_API_URL: `http://127.0.0.1:${port}`,
    NEXT_PUBLIC_SANITY_CDN_URL: `http://127.0.0.1:${port}`,
  }
}

/** Every variable the site needs for the Content Lake on `port`, its secrets included. */
export function contentLakeVariables(port: number, credentials: ContentLakeCredentials): Record<string, string> {
  return {
    ...contentLakeAddresses(port),
    SANITY_API_READ_TOKEN: credentials.viewerToken,
    SANITY_REVALIDATE_SECRET: credentials.webhookSecret,
    // It has applied a change before it sends the webhook: no eventual consistency to wait out.
    SANITY_REVALIDATE_DELAY_MS: '0',
  }
}

/** Asks the Content Lake on `port` for its secrets (loopback, no Origin: never to a page). */
export async function contentLakeCredentials(port: number): Promise<ContentLakeCredentials> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/auth/local-site-credentials`, {
    signal: AbortSignal.timeout(10_000),
  })
  if (!response.ok)
    throw new Error(`The local Content Lake on port ${port} answered ${response.status} for its credentials`)
  return (await response.json()) as ContentLakeCredentials
}

/** Every variable the site (and the scripts) need for the Supabase twin at `url`: the CLI's demo keys. */
export function supabaseVariables(url: string): Record<string, string> {
  return {
    NEXT_PUBLIC_SUPABASE_URL: url,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
  }
}
