'use client'

import { LazyMotion, m, useReducedMotion } from 'framer-motion'
import { Icon } from '@/components/ui/icon'
import { selectedPackageLabel, type ContactCopy } from '@/lib/contact/contact-copy'
import { useModalDialog } from '@/lib/use-modal-dialog'
import { ContactForm } from './contact-form'

const loadFeatures = () => import('./motion-features').then((module) => module.default)

type ContactDialogProps = {
  open: boolean
  packageName: string | null
  /** When the dialog was last opened: the form's fill time counts from here. */
  openedAt: number
  onClose: () => void
  copy: ContactCopy
}

/**
 * The contact dialog: a native modal <dialog> (the rest of the page is inert while it is open),
 * with focus kept inside, closing on Escape, on the close control and on Cancel. Focus returns to
 * the button that opened it.
 */
export function ContactDialog({ open, packageName, openedAt, onClose, copy }: ContactDialogProps) {
  const text = copy.dialog
  const dialogProps = useModalDialog(open, onClose)
  const reduceMotion = useReducedMotion()

  return (
    <dialog
      {...dialogProps}
      aria-labelledby="contact-dialog-title"
      aria-describedby="contact-dialog-description"
      // No max-height of its own (the browser's default is a little shorter than the panel's): the
      // panel alone is sized to the screen and scrolls, so nothing of the form falls outside it.
      className="m-auto max-h-none w-[calc(100%-2rem)] max-w-xl overflow-visible bg-transparent p-0 backdrop:bg-transparent"
      data-testid="contact-dialog"
    >
      <LazyMotion features={loadFeatures} strict>
        <m.div
          initial={reduceMotion ? false : { opacity: 0, y: 16, scale: 0.98 }}
          animate={{ opacity: 1, y: 0, scale: 1 }}
          transition={{ duration: 0.22, ease: 'easeOut' }}
          className="max-h-[calc(100dvh-2rem)] overflow-y-auto overscroll-contain rounded-card bg-white p-5 shadow-lift sm:p-8"
          data-testid="contact-dialog-panel"
        >
          <div className="flex items-start justify-between gap-4">
            <h2 id="contact-dialog-title" className="text-2xl font-semibold text-ink">
              {text.title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label={text.close}
              className="-mt-1 -mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-sand hover:text-ink"
              data-testid="contact-dialog-close"
            >
              <Icon name="close" className="size-5" strokeWidth={2} />
            </button>
          </div>
          <p id="contact-dialog-description" className="mt-2 text-muted">
            {text.description}
          </p>
          {packageName ? (
            <p
              className="mt-4 inline-flex rounded-full bg-clay-soft px-3 py-1 text-sm font-semibold text-clay-strong"
              data-testid="contact-dialog-package"
            >
              {selectedPackageLabel(copy, packageName)}
            </p>
          ) : null}
          <div className="mt-5 sm:mt-6">
            <ContactForm
              variant="dialog"
              copy={copy}
              packageName={packageName}
              openedAt={openedAt}
              onSuccess={onClose}
              onCancel={onClose}
            />
          </div>
        </m.div>
      </LazyMotion>
    </dialog>
  )
}
