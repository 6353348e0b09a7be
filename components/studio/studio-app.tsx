'use client'

// The Studio itself, with all of `sanity`: loaded by studio.tsx, in the browser only.
import { NextStudio } from 'next-sanity/studio/client-component'
import config from '../../sanity.config'

/**
 * Without Sanity's dashboard bridge (next-sanity/studio's default export loads it): the Studio's policy
 * runs only this site's scripts (lib/security/content-security-policy.ts), so the bridge's script from
 * core.sanity-cdn.com would be refused anyway, with a violation report on every visit.
 */
export default function StudioApp() {
  return <NextStudio config={config} />
}
