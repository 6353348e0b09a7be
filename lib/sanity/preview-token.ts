import 'server-only'
import { cache } from 'react'
import { isSanityHosted } from './env'
import { localSiteCredentials } from './local-site-credentials'

/**
 * The token that reads drafts in draft mode, on the site's server only (the preview secret check, the
 * previewed pages, the live-updates stream it relays to the browser): never sent to a browser. Hosted:
 * SANITY_API_READ_TOKEN, a Viewer token. Local: the local Content Lake's read-only viewer token, asked
 * for once per request. Undefined when there is none: draft mode then cannot be enabled.
 */
export const previewToken = cache(async function previewToken(): Promise<string | undefined> {
  if (isSanityHosted) return process.env.SANITY_API_READ_TOKEN || undefined
  return (await localSiteCredentials())?.viewerToken
})
