import { createClient } from 'next-sanity'
import { sanityApiVersion, sanityDataset, sanityProjectId } from './env'

/** The Content Lake client; only created when a project is configured (see fetch.ts). */
export function createSanityClient() {
  return createClient({
    projectId: sanityProjectId,
    dataset: sanityDataset,
    apiVersion: sanityApiVersion,
    useCdn: false,
    perspective: 'published',
    token: process.env.SANITY_API_READ_TOKEN || undefined,
  })
}
