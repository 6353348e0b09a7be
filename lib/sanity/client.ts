import { createClient } from 'next-sanity'
import { sanityApiVersion, sanityDataset, sanityProjectId, sanityServerApiUrl } from './env'

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
  })
}
