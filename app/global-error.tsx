'use client'

import type { CSSProperties } from 'react'
import { pageErrorCopy } from '@/lib/i18n/page-error-copy'

// Its own document: it replaces the root layout, with its stylesheet and fonts. Styles set by React in
// the browser (this renders only there), which the Content-Security-Policy allows.
const page: CSSProperties = {
  margin: 0,
  minHeight: '100dvh',
  display: 'grid',
  placeItems: 'center',
  padding: '2rem',
  background: '#fbf8f3',
  color: '#1c1917',
  font: '1.0625rem/1.6 system-ui, sans-serif',
  textAlign: 'center',
}
const button: CSSProperties = {
  margin: '0.5rem',
  padding: '0.75rem 1.5rem',
  borderRadius: '999px',
  border: '1px solid #1c1917',
  background: '#1c1917',
  color: '#fbf8f3',
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
}
const link: CSSProperties = {
  ...button,
  display: 'inline-block',
  background: 'transparent',
  color: 'inherit',
  textDecoration: 'none',
}

/**
 * When the site's layout itself failed (its content unreachable on a first render, an error no page
 * expects): what happened, in the language of the address, and ways out (each a whole new load).
 */
export default function GlobalError() {
  const copy = pageErrorCopy(undefined, typeof location === 'undefined' ? '' : location.pathname)
  const locale = copy.home === '/en' ? 'en' : 'fr'
  return (
    <html lang={locale}>
      <body style={page}>
        <main>
          <h1 style={{ fontSize: '1.75rem', lineHeight: 1.2, margin: 0 }}>{copy.title}</h1>
          <p style={{ maxWidth: '28rem', margin: '1rem auto 2rem' }}>{copy.description}</p>
          <button type="button" onClick={() => location.reload()} style={button}>
            {copy.retry}
          </button>
          <a href={copy.home} style={link}>
            {copy.backHome}
          </a>
        </main>
      </body>
    </html>
  )
}
