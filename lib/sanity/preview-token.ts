import 'server-only'

/**
 * The token that reads drafts in draft mode, on the site's server only (the preview secret check, the
 * previewed pages, the live-updates stream it relays to the browser): never sent to a browser.
 * SANITY_API_READ_TOKEN, a Viewer token. Undefined when there is none: draft mode then cannot be enabled.
 */
export function previewToken(): string | undefined {
  return process.env.SANITY_API_READ_TOKEN || undefined
}
