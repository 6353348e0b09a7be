import type { Metadata } from 'next'
import { NextStudio } from 'next-sanity/studio'
import { LocalStudio } from '@/components/studio/local-studio'
import { isSanityHosted } from '@/lib/sanity/env'
import config from '../../../../sanity.config'

export const dynamic = 'force-static'
export { viewport } from 'next-sanity/studio'

export const metadata: Metadata = {
  title: 'Studio | Plume & Cap',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
}

/** The embedded Sanity Studio: on the hosted project, or on the local Content Lake (signed in for you). */
export default function StudioPage() {
  return isSanityHosted ? <NextStudio config={config} /> : <LocalStudio />
}
