import type { ReactNode } from 'react'

/** The Studio's own root layout: none of the site's chrome or CSS leaks into it. */
export default function StudioLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="fr">
      <body style={{ margin: 0 }}>{children}</body>
    </html>
  )
}
