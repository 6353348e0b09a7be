import 'server-only'
import { cache } from 'react'
import { isSanityHosted, sanityServerApiHost } from './env'

/**
 * The token that reads drafts in draft mode (the preview secret check, the previewed pages, the
 * browser's live updates). Hosted: SANITY_API_READ_TOKEN, a Viewer token. Local: the editor token the
 * local Content Lake issues on loopback (the site's server is on loopback too), asked for once per
 * request (a new data folder means a new token). Undefined when there is none: draft mode then cannot
 * be enabled.
 */
export const previewToken = cache(async function previewToken(): Promise<string | undefined> {
  if (isSanityHosted) return process.env.SANITY_API_READ_TOKEN || undefined
  try {
    const response = await fetch(`${sanityServerApiHost}/v1/auth/local-token`, { cache: 'no-store' })
    return response.ok ? ((await response.json()) as { token?: string }).token : undefined
  } catch {
    return undefined
  }
})
