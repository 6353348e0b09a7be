import type { Metadata, Viewport } from 'next'
import { Studio } from '@/components/studio/studio'

export const dynamic = 'force-static'
// next-sanity's viewport for the Studio, written out: importing it from next-sanity/studio would bring
// the Studio's code back into the server's bundle (components/studio/studio.tsx).
export const viewport: Viewport = { width: 'device-width', initialScale: 1, viewportFit: 'cover' }

export const metadata: Metadata = {
  title: 'Studio | Plume & Cap',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
}

/** The embedded Sanity Studio, signed in through the Content Lake's own providers. */
export default function StudioPage() {
  return <Studio />
}
