import type { ReactNode } from 'react'

/** The page's content column: one max width and one gutter scale everywhere. */
export function Container({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto w-full max-w-6xl px-5 sm:px-8 ${className}`}>{children}</div>
}
