'use client'

import type { ContactCopy } from '@/lib/contact/contact-copy'
import { toast } from '@/lib/toast-store'
import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react'
import type { ContactDialog as ContactDialogComponent } from './contact-dialog'

type ContactDialogState = { open: boolean; packageName: string | null; openedAt: number }
type ContactDialogApi = { openContactDialog: (packageName?: string | null) => void }

const ContactDialogContext = createContext<ContactDialogApi | null>(null)

/** Holds the contact dialog's state for the whole page; every "choose" button opens it. */
export function ContactDialogProvider({ children, copy }: { children: ReactNode; copy: ContactCopy }) {
  const [state, setState] = useState<ContactDialogState>({ open: false, packageName: null, openedAt: 0 })
  const [ContactDialog, setContactDialog] = useState<typeof ContactDialogComponent | null>(null)

  // The dialog (and framer-motion with it) is downloaded on first open, not with the page (an import
  // rather than next/dynamic, whose loader would add ~1.6 KiB gzip to every page). When it cannot be
  // (offline, or a new deployment has replaced the chunks this page knows), the visitor is told and the
  // page stays; the next click tries again.
  const openContactDialog = useCallback(
    (packageName?: string | null) => {
      const openedAt = Date.now()
      import('./contact-dialog').then(
        (loaded) => {
          setContactDialog(() => loaded.ContactDialog)
          setState({ open: true, packageName: packageName ?? null, openedAt })
        },
        () => toast({ variant: 'error', title: copy.form.errorTitle, description: copy.form.errorDescription }),
      )
    },
    [copy],
  )
  const close = useCallback(() => setState((current) => ({ ...current, open: false })), [])
  const api = useMemo(() => ({ openContactDialog }), [openContactDialog])

  return (
    <ContactDialogContext value={api}>
      {children}
      {ContactDialog ? (
        <ContactDialog
          open={state.open}
          packageName={state.packageName}
          openedAt={state.openedAt}
          onClose={close}
          copy={copy}
        />
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
