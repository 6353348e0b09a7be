'use client'

import dynamic from 'next/dynamic'

/**
 * The embedded Sanity Studio, rendered in the browser only. It never rendered on the server anyway
 * (next-sanity mounts it once in the browser), but everything it imports was bundled for the server
 * render all the same: left out of it, the build compiles `sanity` once rather than twice.
 */
export const Studio = dynamic(() => import('./studio-app'), { ssr: false })
