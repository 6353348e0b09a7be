'use client'

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from '@/lib/i18n/link'
import { useLocaleRoute } from '@/lib/i18n/use-locale-route'
import type { NavService } from './nav-types'

/**
 * The Services dropdown: opens while hovered by a mouse (spec §4), and also on click/tap and from the
 * keyboard (Enter, Space or ArrowDown; Escape closes and returns focus; arrows move between entries).
 */
export function ServicesMenu({
  label,
  services,
  itemIcon,
}: {
  label: string
  services: NavService[]
  itemIcon: ReactNode
}) {
  const { pathname } = useLocaleRoute()
  // Open "on" a given page: navigating elsewhere closes the menu without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === pathname
  const setOpen = (value: boolean | ((current: boolean) => boolean)) =>
    setOpenOn((current) => ((typeof value === 'function' ? value(current === pathname) : value) ? pathname : null))
  const menuId = useId()
  const wrapper = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  // A mouse opens the menu on its way to the button, so the click that usually follows must not
  // toggle it shut: that click keeps it open, and only a further click closes it.
  const openedByHover = useRef(false)

  function links(): HTMLAnchorElement[] {
    return Array.from(wrapper.current?.querySelectorAll<HTMLAnchorElement>('[data-menu-item]') ?? [])
  }

  function focusItem(index: number) {
    const items = links()
    items[(index + items.length) % items.length]?.focus()
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      setOpen(true)
      requestAnimationFrame(() => focusItem(0))
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = links()
    const current = items.indexOf(document.activeElement as HTMLAnchorElement)
    if (event.key === 'Escape') {
      setOpen(false)
      button.current?.focus()
    } else if (event.key === 'ArrowDown' && current >= 0) {
      event.preventDefault()
      focusItem(current + 1)
    } else if (event.key === 'ArrowUp' && current >= 0) {
      event.preventDefault()
      focusItem(current - 1)
    }
  }

  return (
    <div
      ref={wrapper}
      className="relative"
      // Pointer events with the mouse only: a tap also sends enter/leave events, and must simply toggle.
      onPointerEnter={(event) => {
        if (event.pointerType !== 'mouse') return
        openedByHover.current = !open
        setOpen(true)
      }}
      onPointerLeave={(event) => {
        if (event.pointerType !== 'mouse') return
        openedByHover.current = false
        setOpen(false)
      }}
      onKeyDown={onMenuKeyDown}
      onBlur={(event) => {
        if (!wrapper.current?.contains(event.relatedTarget as Node | null)) setOpen(false)
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          if (open && openedByHover.current) openedByHover.current = false
          else setOpen((value) => !value)
        }}
        onKeyDown={onButtonKeyDown}
        className="inline-flex min-h-10 items-center gap-1 rounded-full px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink"
      >
        {label}
        <svg
          viewBox="0 0 20 20"
          aria-hidden="true"
          className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`}
        >
          <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
      <div id={menuId} hidden={!open} className="absolute top-full left-0 pt-2" data-testid="services-menu">
        <ul className="w-72 rounded-2xl border border-line bg-white p-2 shadow-lift">
          {services.map((service) => (
            <li key={service.slug}>
              <Link
                href={`/${service.slug}`}
                data-menu-item
                className="flex items-center gap-3 rounded-xl px-3 py-2.5 text-[0.95rem] text-ink-soft hover:bg-sand hover:text-ink"
                aria-current={pathname === `/${service.slug}` ? 'page' : undefined}
              >
                {itemIcon}
                {service.title}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
