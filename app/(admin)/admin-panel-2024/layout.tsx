import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { Toaster } from '@/components/ui/toaster'
import { fraunces, inter } from '@/lib/fonts'
import '../../globals.css'

export const metadata: Metadata = {
  title: 'Administration',
  robots: { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } },
  referrer: 'same-origin',
}

/** The hidden inbox has its own French root layout: no site navigation links to or from it. */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="fr" className={`${inter.variable} ${fraunces.variable}`}>
      <body className="min-h-dvh bg-sand/40">
        <main className="mx-auto w-full max-w-5xl px-5 py-10 sm:px-8 sm:py-16">{children}</main>
        <Toaster dismissLabel="Fermer la notification" />
      </body>
    </html>
  )
}
