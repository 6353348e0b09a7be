'use client'

// The Studio itself, with all of `sanity`: loaded by studio.tsx, in the browser only.
import { NextStudio as NextStudioWithBridge } from 'next-sanity/studio'
import { NextStudio } from 'next-sanity/studio/client-component'
import { isSanityHosted } from '@/lib/sanity/env'
import config from '../../sanity.config'

/** On the hosted project with Sanity's dashboard bridge script; offline without it (no dashboard). */
export default function StudioApp() {
  return isSanityHosted ? <NextStudioWithBridge config={config} /> : <NextStudio config={config} />
}
