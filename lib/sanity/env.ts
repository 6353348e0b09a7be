import { isHostedProjectId, LOCAL_CONTENT_LAKE_PORT, LOCAL_PROJECT_ID } from '../../local/content-lake/defaults'

/**
 * Sanity settings. With a project id the site and the Studio use that project's hosted Content Lake;
 * without one they use the local Content Lake (local/content-lake, started by `npm start`, `npm run dev`
 * and the test command) through the very same client. Nothing here throws.
 */
const hostedProjectId = process.env.NEXT_PUBLIC_SANITY_PROJECT_ID ?? ''
export const isSanityHosted = isHostedProjectId(hostedProjectId)
export const sanityProjectId = isSanityHosted ? hostedProjectId : LOCAL_PROJECT_ID
export const sanityDataset = process.env.NEXT_PUBLIC_SANITY_DATASET || 'production'
export const sanityApiVersion = process.env.NEXT_PUBLIC_SANITY_API_VERSION || '2025-10-01'

/** Port of the local Content Lake (one port: plain HTTP for Node, HTTP/2 over TLS for browsers). */
export const localContentLakePort = Number(process.env.NEXT_PUBLIC_SANITY_LOCAL_PORT) || LOCAL_CONTENT_LAKE_PORT

/**
 * Where the site's server reaches the API: Sanity's default host when hosted, the local server's
 * plain-HTTP side otherwise (Node resolves no `<project>.localhost` names, so no project subdomain).
 */
export const sanityServerApiHost = isSanityHosted ? undefined : `http://127.0.0.1:${localContentLakePort}`

/** Where a browser (the Studio) reaches the API: the local server's HTTP/2 side, which Chromium needs. */
export const sanityBrowserApiHost = isSanityHosted ? undefined : `https://localhost:${localContentLakePort}`

/** Where the embedded Studio lives: stega-encoded strings in draft mode point there. */
export const sanityStudioUrl = '/studio'
