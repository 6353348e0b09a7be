'use client'

import dynamic from 'next/dynamic'
import { ApiUnreachableNotice } from './api-unreachable-notice'

/**
 * The embedded Sanity Studio, rendered in the browser only. It never rendered on the server anyway
 * (next-sanity mounts it once in the browser), but everything it imports was bundled for the server
 * render all the same: left out of it, the build compiles `sanity` once rather than twice.
 */
const StudioApp = dynamic(() => import('./studio-app'), { ssr: false })

/** The Studio, with a notice above it when this browser cannot reach the Content Lake (its certificate). */
export function Studio() {
  return (
    <>
      <ApiUnreachableNotice />
      <StudioApp />
    </>
  )
}
