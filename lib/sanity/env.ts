import { backends } from '../site-backends.ts'

/** Sanity settings, as the door (lib/backends.ts) read them from the environment. */
const { sanity } = backends
export const sanityProjectId = sanity.projectId
export const sanityDataset = sanity.dataset
export const sanityApiVersion = sanity.apiVersion

/** Sanity's API host the Studio reaches from the browser (`https://api.sanity.io`). */
export const sanityApiHost = sanity.apiHost

/** Where the site's server reaches this project's API, as it is (`https://<projectId>.api.sanity.io`). */
export const sanityServerApiUrl = sanity.serverApiUrl

/** Where image and file bytes are served from (`https://cdn.sanity.io`). */
export const sanityCdnUrl = sanity.cdnUrl

/** Where the embedded Studio lives: stega-encoded strings in draft mode point there. */
export const sanityStudioUrl = '/studio'
