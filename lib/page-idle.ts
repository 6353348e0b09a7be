import { useSyncExternalStore } from 'react'

/*
 * Whether the page has loaded and the browser has gone idle since: links prefetch from then on. On a
 * slow phone link, prefetches started at hydration competed with the document's tail and the fonts
 * (issue 56); on a fast one, load and idle come within moments, and the next click is as fast as ever.
 */

let idle = false
const listeners = new Set<() => void>()
let waiting = false

function becomeIdle() {
  idle = true
  for (const listener of listeners) listener()
}

/** Waits for the load event, then for the browser's first idle moment (at most 2 s more). */
function waitForIdle() {
  if (waiting || idle) return
  waiting = true
  const afterLoad = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(becomeIdle, { timeout: 2000 })
    else setTimeout(becomeIdle, 200)
  }
  if (document.readyState === 'complete') afterLoad()
  else window.addEventListener('load', afterLoad, { once: true })
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  waitForIdle()
  return () => listeners.delete(listener)
}

/** True once the page has loaded and the browser went idle (false on the server and at hydration). */
export function usePageIdle(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => idle,
    () => false,
  )
}
