'use client'

import { lazy, Suspense, type ComponentProps } from 'react'

// react-hook-form and the form's code (~14 KiB gzip) stay out of the contact page's first load. The
// server renders the form into the page's HTML (React's inline script puts it in place while the page
// is parsed); hydration then waits for this chunk and keeps that form meanwhile (selective hydration
// keeps its DOM: focus and anything typed survive, and the send button stays disabled until React
// runs it). The fallback shows only after a client-side navigation, or for good without JavaScript,
// where the form could not send anyway: the contact details beside it remain.
const ContactForm = lazy(() => import('./contact-form').then((module) => ({ default: module.ContactForm })))

/** The contact page's form, loaded as its own chunk. */
export function LazyContactForm(props: ComponentProps<typeof ContactForm>) {
  return (
    <Suspense fallback={<div className="min-h-[30rem]" aria-busy="true" />}>
      <ContactForm {...props} />
    </Suspense>
  )
}
