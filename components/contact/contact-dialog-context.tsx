'use client'

import type { ContactCopy } from '@/lib/contact/contact-copy'
import { createContext, lazy, Suspense, use, useCallback, useMemo, useState, type ReactNode } from 'react'

type ContactDialogState = { open: boolean; packageName: string | null; openedAt: number }
type ContactDialogApi = { openContactDialog: (packageName?: string | null) => void }

const ContactDialogContext = createContext<ContactDialogApi | null>(null)

// The dialog (and framer-motion with it) is downloaded on first open, not with the page. React.lazy
// rather than next/dynamic: the dialog only ever mounts after a click, and next/dynamic's loader
// would add ~1.6 KiB gzip to every page.
const ContactDialog = lazy(() => import('./contact-dialog').then((module) => ({ default: module.ContactDialog })))

/** Holds the contact dialog's state for the whole page; every "choose" button opens it. */
export function ContactDialogProvider({ children, copy }: { children: ReactNode; copy: ContactCopy }) {
  const [state, setState] = useState<ContactDialogState>({ open: false, packageName: null, openedAt: 0 })
  const [mounted, setMounted] = useState(false)

  const openContactDialog = useCallback((packageName?: string | null) => {
    setMounted(true)
    setState({ open: true, packageName: packageName ?? null, openedAt: Date.now() })
  }, [])
  const close = useCallback(() => setState((current) => ({ ...current, open: false })), [])
  const api = useMemo(() => ({ openContactDialog }), [openContactDialog])

  return (
    <ContactDialogContext value={api}>
      {children}
      {mounted ? (
        <Suspense fallback={null}>
          <ContactDialog
            open={state.open}
            packageName={state.packageName}
            openedAt={state.openedAt}
            onClose={close}
            copy={copy}
          />
        </Suspense>
      ) : null}
    </ContactDialogContext>
  )
}

/** The dialog's API; calling it outside ContactDialogProvider is a programming error. */
export function useContactDialog(): ContactDialogApi {
  const api = use(ContactDialogContext)
  if (!api) throw new Error('useContactDialog must be used inside <ContactDialogProvider>')
  return api
}
