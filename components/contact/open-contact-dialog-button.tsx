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
  /** The button's name when its text alone does not say enough (it must start with that text, WCAG 2.5.3). */
  label?: string
}

/** A button that opens the contact dialog, remembering which package (if any) it was chosen from. */
export function OpenContactDialogButton({
  children,
  packageName,
  variant = 'primary',
  size = 'md',
  className = '',
  label,
}: Props) {
  const { openContactDialog } = useContactDialog()
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      aria-label={label}
      onClick={() => openContactDialog(packageName)}
      className={buttonClasses(variant, size, className)}
      data-package={packageName ?? undefined}
    >
      {children}
    </button>
  )
}
