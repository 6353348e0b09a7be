'use client'

import { useCallback, useRef } from 'react'
import { useModalDialog } from '@/lib/use-modal-dialog'

/** What a confirmation asks: its question, what it explains, and the name of the destructive button. */
export type Confirmation = {
  title: string
  description: string
  /** Named for what it does (« Supprimer le message »), never « OK ». */
  confirmLabel: string
  onConfirm: () => void
}

/**
 * The inbox's own confirmation before a deletion, in place of the browser's `confirm()`: a native modal
 * <dialog> like the contact dialog (the page behind inert, focus kept inside), the focus first on
 * « Annuler » (a stray Enter deletes nothing), Escape, a click outside and « Annuler » cancel. The
 * browser gives the focus back to the button that opened it.
 */
export function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null)
  const focusCancel = useCallback(() => cancel.current?.focus(), [])
  const dialogProps = useModalDialog(confirmation !== null, onClose, focusCancel)

  return (
    <dialog
      {...dialogProps}
      aria-labelledby="confirm-dialog-title"
      aria-describedby="confirm-dialog-description"
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-card bg-white p-6 shadow-lift backdrop:bg-ink/40"
      data-testid="confirm-dialog"
    >
      {confirmation ? (
        <>
          <h2 id="confirm-dialog-title" className="text-xl font-semibold text-ink">
            {confirmation.title}
          </h2>
          <p id="confirm-dialog-description" className="mt-2 text-muted">
            {confirmation.description}
          </p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button
              ref={cancel}
              type="button"
              onClick={onClose}
              className="rounded-full border border-line px-4 py-2 text-sm font-semibold text-ink hover:bg-sand"
            >
              Annuler
            </button>
            <button
              type="button"
              onClick={() => {
                confirmation.onConfirm()
                onClose()
              }}
              className="rounded-full bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800"
            >
              {confirmation.confirmLabel}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  )
}
