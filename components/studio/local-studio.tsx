'use client'

import { useEffect, useState } from 'react'
import { sanityBrowserApiHost, sanityProjectId } from '@/lib/sanity/env'
import { Studio } from './studio'

type Status = 'connecting' | 'ready' | 'unreachable'

/**
 * The Studio on the local Content Lake. Offline there is no sign-in page: the editor's browser asks
 * the local server (loopback, this site's origin only) for its editor token and stores it where the
 * Studio keeps a signed-in token, then opens the Studio. When the server cannot be reached — not
 * started, or its certificate not yet trusted by this browser — it says how to fix that.
 */
export function LocalStudio() {
  const [status, setStatus] = useState<Status>('connecting')
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let cancelled = false
    void signInLocalEditor().then((signedIn) => {
      if (!cancelled) setStatus(signedIn ? 'ready' : 'unreachable')
    })
    return () => {
      cancelled = true
    }
  }, [attempt])

  if (status === 'ready') return <Studio />
  if (status === 'connecting')
    return <p style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>Connecting to the local Content Lake…</p>
  return (
    <LocalStudioUnreachable
      onRetry={() => {
        setStatus('connecting')
        setAttempt((count) => count + 1)
      }}
    />
  )
}

/** Fetches the editor token and stores it as the Studio stores a signed-in token (`{token}` per project). */
async function signInLocalEditor(): Promise<boolean> {
  try {
    const response = await fetch(`${sanityBrowserApiHost}/v1/auth/local-token`, { cache: 'no-store' })
    const { token } = (await response.json()) as { token?: string }
    if (!response.ok || !token) return false
    localStorage.setItem(`__studio_auth_token_${sanityProjectId}`, JSON.stringify({ token }))
    return true
  } catch {
    return false
  }
}

function LocalStudioUnreachable({ onRetry }: { onRetry: () => void }) {
  const code = { background: '#f3ece1', borderRadius: 6, padding: '2px 6px', fontSize: '0.95em' } as const
  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        maxWidth: 720,
        margin: '0 auto',
        padding: '64px 24px',
        color: '#1c1917',
        lineHeight: 1.6,
      }}
    >
      <h1 style={{ fontSize: 28, marginBottom: 8 }}>The Studio cannot reach the local Content Lake</h1>
      <p style={{ color: '#57534e' }}>
        Without a Sanity project, content lives in the local Content Lake at{' '}
        <code style={code}>{sanityBrowserApiHost}</code>. This browser could not reach it. Two usual causes:
      </p>
      <ol style={{ paddingLeft: 20 }}>
        <li>
          <strong>It is not running.</strong> <code style={code}>npm start</code> and{' '}
          <code style={code}>npm run dev</code> start it; on its own: <code style={code}>npm run sanity:local</code>.
        </li>
        <li>
          <strong>This browser does not trust its certificate yet</strong> (made on first start, for HTTP/2). Open{' '}
          <a href={`${sanityBrowserApiHost}/v1/ping`} target="_blank" rel="noreferrer">
            {sanityBrowserApiHost}
          </a>{' '}
          once and accept it, or trust the certificate for good: <code style={code}>npm run cert:trust</code>{' '}
          (docs/sanity.md).
        </li>
      </ol>
      <button
        type="button"
        onClick={onRetry}
        style={{
          marginTop: 16,
          padding: '10px 18px',
          borderRadius: 8,
          border: '1px solid #1c1917',
          background: '#1c1917',
          color: 'white',
          cursor: 'pointer',
        }}
      >
        Try again
      </button>
    </main>
  )
}
