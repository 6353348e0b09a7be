'use client'

import { createClient, type ClientConfig } from '@sanity/client'
import { useRouter } from 'next/navigation'
import { startTransition, useEffect } from 'react'

export type LiveDraftsConfig = Pick<ClientConfig, 'projectId' | 'dataset' | 'apiVersion' | 'apiHost' | 'useProjectHostname' | 'token'>

/**
 * Live preview of drafts: listens to the Live Content API with drafts included (the editor's token)
 * and re-renders the page from the server whenever content changes, as next-sanity's <SanityLive
 * includeDrafts> does; kept here so the page's first-load code holds none of it.
 */
export function LiveDrafts({ config }: { config: LiveDraftsConfig }) {
  const router = useRouter()
  const { projectId, dataset, apiVersion, apiHost, useProjectHostname, token } = config
  useEffect(() => {
    const client = createClient({ projectId, dataset, apiVersion, apiHost, useProjectHostname, token, useCdn: false, ignoreBrowserTokenWarning: true })
    const subscription = client.live.events({ includeDrafts: true, tag: 'preview' }).subscribe({
      next: (event) => {
        if (event.type === 'message' || event.type === 'restart') startTransition(() => router.refresh())
      },
      // A lost connection is retried by the client; a refused one is worth a line in the console.
      error: (error: unknown) => console.warn('Live preview stopped: the page no longer follows edits until it is reloaded.', error),
    })
    return () => subscription.unsubscribe()
  }, [router, projectId, dataset, apiVersion, apiHost, useProjectHostname, token])
  return null
}
