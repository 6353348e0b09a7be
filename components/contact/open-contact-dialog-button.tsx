'use client'

import type { ReactNode } from 'react'
import { buttonClasses, type ButtonSize, type ButtonVariant } from '@/components/ui/button-styles'
import { useContactDialog } from './contact-dialog-context'

type Props = {
  children: ReactNode
  packageName?: string | null
  variant?: ButtonVariant
  size?: ButtonSize
  className?: string
}

/** A button that opens the contact dialog, remembering which package (if any) it was chosen from. */
export function OpenContactDialogButton({
  children,
  packageName,
  variant = 'primary',
  size = 'md',
  className = '',
}: Props) {
  const { openContactDialog } = useContactDialog()
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      onClick={() => openContactDialog(packageName)}
      className={buttonClasses(variant, size, className)}
      data-package={packageName ?? undefined}
    >
      {children}
    </button>
  )
}
