/**
 * Sanity settings. With no project id the site runs on the bundled seed dataset (offline); with
 * one it reads that project's Content Lake. Nothing here throws: an unconfigured project is a
 * supported mode, not an error.
 */
export const sanityProjectId = process.env.NEXT_PUBLIC_SANITY_PROJECT_ID ?? ''
export const sanityDataset = process.env.NEXT_PUBLIC_SANITY_DATASET || 'production'
export const sanityApiVersion = process.env.NEXT_PUBLIC_SANITY_API_VERSION || '2025-10-01'
export const isSanityConfigured = /^[a-z0-9-]+$/.test(sanityProjectId)
