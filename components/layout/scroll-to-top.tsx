'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'

/**
 * Every route change starts at the top of the page (spec §2), except a navigation to an anchor
 * (/#benefits), which the browser scrolls to itself.
 */
export function ScrollToTop() {
  const pathname = usePathname()
  useEffect(() => {
    if (window.location.hash) return
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname])
  return null
}
