import { createClient } from 'next-sanity'
import { sanityApiVersion, sanityDataset, sanityProjectId, sanityServerApiHost } from './env'

/** The one Content Lake client of the site's server: hosted, or the local Content Lake. */
export function createSanityClient() {
  return createClient({
    projectId: sanityProjectId,
    dataset: sanityDataset,
    apiVersion: sanityApiVersion,
    useCdn: false,
    perspective: 'published',
    token: process.env.SANITY_API_READ_TOKEN || undefined,
    ...(sanityServerApiHost ? { apiHost: sanityServerApiHost, useProjectHostname: false } : {}),
  })
}
