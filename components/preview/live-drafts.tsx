'use client'

import { useRouter } from 'next/navigation'
import { startTransition, useEffect } from 'react'

/** The site's relay of the Live Content API, drafts included (app/api/draft-mode/live). */
export const LIVE_DRAFTS_PATH = '/api/draft-mode/live'

/**
 * Live preview of drafts: listens to the Live Content API with drafts included and re-renders the page
 * from the server whenever content changes, as next-sanity's <SanityLive includeDrafts> does. The
 * stream comes through the site, which holds the token that reads drafts: the page holds none. When
 * draft access ends the site ends the stream and refuses the next one; EventSource then gives up.
 */
export function LiveDrafts() {
  const router = useRouter()
  useEffect(() => {
    const source = new EventSource(LIVE_DRAFTS_PATH)
    const refresh = () => startTransition(() => router.refresh())
    // `message`: content changed; `restart`: the stream was reset and changes may have been missed.
    source.addEventListener('message', refresh)
    source.addEventListener('restart', refresh)
    source.addEventListener('error', () => {
      // A lost connection is retried by EventSource; a refused one is worth a line in the console.
      if (source.readyState === EventSource.CLOSED)
        console.warn('Live preview stopped: the page no longer follows edits until it is reloaded.')
    })
    return () => source.close()
  }, [router])
  return null
}
