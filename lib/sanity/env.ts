import { backends } from '../backends.ts'

/**
 * Sanity settings, as the door (lib/backends.ts) decided them: with a project id the site and the
 * Studio use that project's hosted Content Lake; without one the local Content Lake twin (started by
 * `npm start`, `npm run dev` and the test command) through the very same client.
 */
const { sanity } = backends
export const isSanityHosted = sanity.hosted
export const sanityProjectId = sanity.projectId
export const sanityDataset = sanity.dataset
export const sanityApiVersion = sanity.apiVersion

/** Where the site's server reaches the API (undefined: Sanity's default host). */
export const sanityServerApiHost = sanity.serverApiHost

/** Where a browser (the Studio) reaches the API (undefined: Sanity's default host). */
export const sanityBrowserApiHost = sanity.browserApiHost

/** Where the embedded Studio lives: stega-encoded strings in draft mode point there. */
export const sanityStudioUrl = '/studio'
