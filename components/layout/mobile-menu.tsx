'use client'

import { useEffect, useRef, useState } from 'react'
import { Icon } from '@/components/ui/icon'
import { keepTabInside } from '@/lib/focus-trap'
import { Link } from '@/lib/i18n/link'
import { useLocaleRoute } from '@/lib/i18n/use-locale-route'
import { LanguageToggle } from './language-toggle'
import { NavCtaButton } from './nav-cta-button'
import type { NavService } from './nav-types'

type MobileMenuProps = {
  services: NavService[]
  labels: {
    open: string
    close: string
    nav: string
    services: string
    benefits: string
    testimonials: string
    about: string
    contact: string
    cta: string
    switchLanguage: string
  }
}

/**
 * The phone menu (below the lg breakpoint): a disclosure button that opens a full-width panel with
 * every destination. It closes on Escape (focus back on the button), on navigation and when the
 * screen grows to the desktop layout; while it is open the page behind does not scroll and keyboard
 * focus cycles through the button and the panel, as in the contact dialog.
 */
export function MobileMenu({ services, labels }: MobileMenuProps) {
  const { pathname } = useLocaleRoute()
  // Open "on" a given page: navigating elsewhere closes the menu without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === pathname
  const setOpen = (value: boolean | ((current: boolean) => boolean)) =>
    setOpenOn((current) => ((typeof value === 'function' ? value(current === pathname) : value) ? pathname : null))
  const wrapper = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const desktop = window.matchMedia('(min-width: 64rem)')
    const onChange = () => desktop.matches && setOpenOn(null)
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenOn(null)
        button.current?.focus()
      }
    }
    desktop.addEventListener('change', onChange)
    document.addEventListener('keydown', onKey)
    document.documentElement.style.overflow = 'hidden'
    panel.current?.querySelector<HTMLElement>('a, button')?.focus()
    return () => {
      desktop.removeEventListener('change', onChange)
      document.removeEventListener('keydown', onKey)
      document.documentElement.style.overflow = ''
    }
  }, [open])

  const close = () => setOpen(false)
  const linkClass = 'block rounded-xl px-4 py-3 text-lg font-medium text-ink hover:bg-sand'

  return (
    // The panel covers the page: Tab must not wander behind it. The button stays in the cycle, to close.
    <div ref={wrapper} className="lg:hidden" onKeyDown={(event) => open && keepTabInside(event, wrapper.current)}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="mobile-menu"
        aria-label={open ? labels.close : labels.open}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex size-11 items-center justify-center rounded-full text-ink hover:bg-sand"
        data-testid="mobile-menu-button"
      >
        <Icon name={open ? 'close' : 'menu'} className="size-6" strokeWidth={1.8} />
      </button>
      <div
        id="mobile-menu"
        ref={panel}
        hidden={!open}
        className="fixed inset-x-0 top-[4.5rem] bottom-0 overflow-y-auto border-t border-line bg-paper px-5 pt-4 pb-10"
      >
        <nav aria-label={labels.nav}>
          <p className="px-4 pt-2 pb-1 text-sm font-semibold tracking-[0.14em] text-clay uppercase">
            {labels.services}
          </p>
          <ul>
            {services.map((service) => (
              <li key={service.slug}>
                <Link href={`/${service.slug}`} className={linkClass} onClick={close}>
                  {service.title}
                </Link>
              </li>
            ))}
          </ul>
          <ul className="mt-3 border-t border-line pt-3">
            <li>
              <Link href="/#benefits" className={linkClass} onClick={close}>
                {labels.benefits}
              </Link>
            </li>
            <li>
              <Link href="/#testimonials" className={linkClass} onClick={close}>
                {labels.testimonials}
              </Link>
            </li>
            <li>
              <Link href="/about" className={linkClass} onClick={close}>
                {labels.about}
              </Link>
            </li>
            <li>
              <Link href="/contact" className={linkClass} onClick={close}>
                {labels.contact}
              </Link>
            </li>
          </ul>
          <div className="mt-6 flex items-center gap-3 px-4">
            <LanguageToggle label={labels.switchLanguage} />
            <NavCtaButton label={labels.cta} onNavigate={close} className="flex-1" />
          </div>
        </nav>
      </div>
    </div>
  )
}
