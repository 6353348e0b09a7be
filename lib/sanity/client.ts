import { createClient } from 'next-sanity'
import { sanityApiVersion, sanityDataset, sanityProjectId, sanityServerApiUrl } from './env'

/**
 * The longest a page waits for the Content Lake, every attempt included. Past it the render fails, and a
 * page served before keeps its last good version (Next's stale-while-revalidate: app/api/revalidate):
 * the client's defaults (5 attempts of up to 300 s each) held a visitor's connection for minutes when
 * the API hung. 3 s is over ten times a hosted query's usual time.
 */
export const CONTENT_DEADLINE_MS = 3_000

/** The one Content Lake client of the site's server. */
export function createSanityClient() {
  return createClient({
    projectId: sanityProjectId,
    dataset: sanityDataset,
    apiVersion: sanityApiVersion,
    useCdn: false,
    perspective: 'published',
    token: process.env.SANITY_API_READ_TOKEN || undefined,
    // The project's API as configured (by default `https://<projectId>.api.sanity.io`, what the client
    // would build itself): used as it is.
    apiHost: sanityServerApiUrl,
    useProjectHostname: false,
    // One attempt may take the whole deadline (a slow answer still arrives); a refused connection or a
    // 5xx is tried once more, soon, within what is left of it (the caller's signal).
    timeout: CONTENT_DEADLINE_MS,
    maxRetries: 1,
    retryDelay: () => 150,
  })
}
