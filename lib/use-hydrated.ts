import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** False on the server and while React hydrates, true once the component runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
