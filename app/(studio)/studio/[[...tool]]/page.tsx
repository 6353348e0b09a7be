import type { Metadata } from 'next'
import { NextStudio } from 'next-sanity/studio'
import { StudioSetupHelp } from '@/components/studio/studio-setup-help'
import { isSanityConfigured } from '@/lib/sanity/env'
import config from '../../../../sanity.config'

export const dynamic = 'force-static'
export { viewport } from 'next-sanity/studio'

export const metadata: Metadata = {
  title: 'Studio | Plume & Cap',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
}

/** The embedded Sanity Studio, or, with no project configured, how to connect one. */
export default function StudioPage() {
  if (!isSanityConfigured) return <StudioSetupHelp />
  return <NextStudio config={config} />
}
