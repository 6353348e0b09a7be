'use client'

import { useEffect, useRef, type MouseEvent } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { useRouter } from 'next/navigation'
import { Link } from '@/lib/i18n/link'
import { localizedPath } from '@/lib/i18n/localized-path'
import { useLocaleRoute } from '@/lib/i18n/use-locale-route'
import { NAV_CTA_SCROLL_DELAY_MS, scrollToSection, scrollToSectionWhenPresent } from '@/lib/scroll'

/**
 * The navigation's call to action: go to the home page, then smooth-scroll to #services after
 * 100 ms. Without JavaScript it is a plain link to /#services.
 */
export function NavCtaButton({
  label,
  className = '',
  onNavigate,
}: {
  label: string
  className?: string
  onNavigate?: () => void
}) {
  const { locale, pathname } = useLocaleRoute()
  const router = useRouter()
  const pending = useRef(false)

  useEffect(() => {
    if (!pending.current || pathname !== '/') return
    pending.current = false
    let cancel = () => {}
    const timer = window.setTimeout(() => (cancel = scrollToSectionWhenPresent('services')), NAV_CTA_SCROLL_DELAY_MS)
    return () => {
      window.clearTimeout(timer)
      cancel()
    }
  }, [pathname])

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    onNavigate?.()
    if (pathname === '/') {
      window.setTimeout(() => scrollToSection('services'), NAV_CTA_SCROLL_DELAY_MS)
    } else {
      pending.current = true
      // Next's own scroll handling would reset the page when the home segment commits, which can
      // land after our timer on a busy machine; ScrollToTop already starts the page at the top.
      router.push(localizedPath('/', locale), { scroll: false })
    }
  }

  return (
    <Link
      href="/#services"
      onClick={handleClick}
      className={buttonClasses('accent', 'sm', className)}
      data-testid="nav-cta"
    >
      {label}
    </Link>
  )
}
