'use client'

import { useRouter } from 'next/navigation'
import { startTransition, useEffect, useRef } from 'react'

/** The site's relay of the Live Content API, drafts included (app/api/draft-mode/live). */
export const LIVE_DRAFTS_PATH = '/api/draft-mode/live'

/**
 * Live preview of drafts: listens to the Live Content API with drafts included and re-renders the page
 * from the server whenever content changes, as next-sanity's <SanityLive includeDrafts> does. The
 * stream comes through the site, which holds the token that reads drafts: the page holds none. When
 * draft access ends the site ends the stream and refuses the next one; EventSource then gives up.
 */
export function LiveDrafts({ stale }: { stale: boolean }) {
  const router = useRouter()
  // Read by the stream's handlers without restarting it when a refresh brings the page up to date.
  const staleRef = useRef(stale)
  useEffect(() => {
    staleRef.current = stale
  }, [stale])
  useEffect(() => {
    const source = new EventSource(LIVE_DRAFTS_PATH)
    const refresh = () => startTransition(() => router.refresh())
    // `message`: content changed; `restart`: the stream was reset and changes may have been missed.
    source.addEventListener('message', refresh)
    source.addEventListener('restart', refresh)
    // `unavailable`: the site could not reach the Content Lake and EventSource will ask again. A
    // `welcome` after it, or on a page rendered while drafts were unreadable (the last version loaded),
    // means the Content Lake answers again: the page is read again.
    let missed = false
    source.addEventListener('unavailable', () => (missed = true))
    source.addEventListener('welcome', () => {
      if (!missed && !staleRef.current) return
      missed = false
      staleRef.current = false
      refresh()
    })
    source.addEventListener('error', () => {
      // A lost connection is retried by EventSource; a refused one is worth a line in the console.
      if (source.readyState === EventSource.CLOSED)
        console.warn('Live preview stopped: the page no longer follows edits until it is reloaded.')
    })
    return () => source.close()
  }, [router])
  return null
}
