'use client'

import { useEffect, useRef, useSyncExternalStore } from 'react'
import { dismissToast, getServerToasts, getToasts, subscribeToasts } from '@/lib/toast-store'
import { Icon } from './icon'

/**
 * Renders the toast queue in a manual popover, i.e. in the browser's top layer: a toast raised while
 * the contact dialog is open shows above it. Announced politely (errors assertively). It keeps clear
 * of the forms' Send button, which a toast in the bottom-right corner used to cover (a visitor
 * correcting a refused message clicked the toast instead): at the top of a phone's screen (the visitor
 * who just pressed Send is at the end of the form, at the bottom), in the bottom-left corner of wider
 * screens (Send ends the form's last row, on the right).
 */
export function Toaster({ dismissLabel }: { dismissLabel: string }) {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts)
  const region = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = region.current
    if (!element || typeof element.showPopover !== 'function') return
    // Re-showing moves the popover to the top of the top layer, above a dialog opened since.
    if (element.matches(':popover-open')) element.hidePopover()
    if (toasts.length > 0) element.showPopover()
  }, [toasts])

  return (
    <div
      ref={region}
      popover="manual"
      className="fixed inset-auto top-4 right-4 left-4 m-0 flex flex-col gap-3 overflow-visible border-0 bg-transparent p-0 sm:top-auto sm:right-auto sm:bottom-4 sm:w-96"
      data-testid="toaster"
    >
      {toasts.map((item) => (
        <div
          key={item.id}
          role={item.variant === 'error' ? 'alert' : 'status'}
          data-variant={item.variant}
          className={`flex items-start gap-3 rounded-2xl border p-4 shadow-lift ${
            item.variant === 'error'
              ? 'border-red-200 bg-red-50 text-red-950'
              : item.variant === 'success'
                ? 'border-emerald-200 bg-emerald-50 text-emerald-950'
                : 'border-line bg-white text-ink'
          }`}
        >
          <div className="flex-1">
            <p className="font-semibold" data-testid="toast-title">
              {item.title}
            </p>
            {item.description ? (
              <p className="mt-1 text-sm" data-testid="toast-description">
                {item.description}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            onClick={() => dismissToast(item.id)}
            aria-label={dismissLabel}
            className="-m-1 inline-flex size-8 items-center justify-center rounded-full opacity-70 hover:opacity-100"
          >
            <Icon name="close" className="size-4" strokeWidth={2} />
          </button>
        </div>
      ))}
    </div>
  )
}
