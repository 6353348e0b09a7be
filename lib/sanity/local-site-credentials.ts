import 'server-only'
import { isSanityHosted, sanityServerApiHost } from './env'

export type LocalSiteCredentials = { viewerToken: string; webhookSecret: string }

/**
 * What the local Content Lake gives the site's server on loopback (`/v1/auth/local-site-credentials`):
 * a read-only token for previews and the secret of its revalidation webhook, both made for its data
 * folder, so no two copies of the site share them and none is a well-known default. Asked for on each
 * use (a new data folder means new ones); undefined when hosted or when the Content Lake is down.
 */
export async function localSiteCredentials(): Promise<LocalSiteCredentials | undefined> {
  if (isSanityHosted) return undefined
  try {
    const response = await fetch(`${sanityServerApiHost}/v1/auth/local-site-credentials`, { cache: 'no-store' })
    if (!response.ok) return undefined
    const { viewerToken, webhookSecret } = (await response.json()) as Partial<LocalSiteCredentials>
    return typeof viewerToken === 'string' && typeof webhookSecret === 'string'
      ? { viewerToken, webhookSecret }
      : undefined
  } catch {
    return undefined
  }
}
