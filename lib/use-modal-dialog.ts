import { useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react'
import { keepTabInside } from './focus-trap'

/**
 * A native modal <dialog> (the page behind inert) that follows `open`: shown with showModal(), then
 * `onOpen` (e.g. to focus a button); closed with close(). The props it returns go on the <dialog>:
 * Escape, a click on the backdrop and the dialog's own closing call `onClose`, and Tab stays inside.
 * The contact dialog and the inbox's confirmation share it.
 */
export function useModalDialog(open: boolean, onClose: () => void, onOpen?: () => void) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    if (open && !element.open) {
      element.showModal()
      onOpen?.()
    }
    if (!open && element.open) element.close()
  }, [open, onOpen])
  return {
    ref,
    onClose,
    onCancel: onClose,
    onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => keepTabInside(event, ref.current),
    onClick: (event: MouseEvent<HTMLDialogElement>) => event.target === ref.current && onClose(),
  }
}
