'use client'

import { useEffect, useState } from 'react'
import { sanityApiHost, sanityProjectId } from '@/lib/sanity/env'

/** How long the probe waits: Chromium fails a certificate it does not trust at once; a hang is cut here. */
const PROBE_DEADLINE_MS = 8_000

/**
 * Tells the editor, within seconds, when this browser cannot reach the Content Lake's API at all, and
 * what to do. The Studio itself, in that case, retries with a spinner for minutes on some Chromium
 * releases (150) before its own « Network error », or never shows it; its console names the cause
 * (ERR_CERT_AUTHORITY_INVALID) where no editor looks. The probe is the request the Studio would make, to
 * the same origin, without CORS (`no-cors`: any HTTP answer, even an error status, proves the origin
 * reachable and its certificate trusted): only a failure to connect shows the notice. Offline, the
 * usual cause is the local Content Lake's certificate, not trusted yet: the notice names the command.
 * Both origins the Studio calls are probed, the project's (`<id>.<host>`: content) and the API host's
 * (sign-in, the user): a browser accepts a certificate warning for one host name at a time.
 */
export function ApiUnreachableNotice() {
  const [unreachable, setUnreachable] = useState<string[]>([])
  const api = new URL(sanityApiHost)
  const projectOrigin = `${api.protocol}//${sanityProjectId}.${api.host}`
  const apiOrigin = api.origin

  useEffect(() => {
    let current = true
    const probe = (origin: string) =>
      fetch(`${origin}/v1/ping`, { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(PROBE_DEADLINE_MS) })
        .then(() => null)
        .catch(() => origin)
    void Promise.all([projectOrigin, apiOrigin].map(probe)).then(
      (failed) => current && setUnreachable(failed.filter((origin): origin is string => origin !== null)),
    )
    return () => {
      current = false
    }
  }, [projectOrigin, apiOrigin])

  if (unreachable.length === 0) return null
  return (
    <div
      role="alert"
      lang="fr"
      style={{
        position: 'fixed',
        inset: '0 0 auto 0',
        zIndex: 2147483647,
        padding: '16px 20px',
        background: '#fff4e5',
        borderBottom: '2px solid #b45309',
        color: '#1f2937',
        font: '15px/1.5 system-ui, sans-serif',
      }}
    >
      <p style={{ margin: '0 0 6px', fontWeight: 600 }}>
        Le Studio ne peut pas joindre l’API de contenu ({unreachable.join(', ')}).
      </p>
      <p style={{ margin: '0 0 6px' }}>
        Sur un poste de développement, ce navigateur ne fait sans doute pas encore confiance au certificat du Content
        Lake local : lancez <code>npm run cert:trust</code> une fois, puis redémarrez le navigateur (ou ouvrez{' '}
        {unreachable.map((origin, index) => (
          <span key={origin}>
            {index > 0 && ' puis '}
            <a href={`${origin}/v1/ping`} target="_blank" rel="noreferrer">
              {origin}/v1/ping
            </a>
          </span>
        ))}{' '}
        et acceptez chaque avertissement). Avec un projet Sanity hébergé, vérifiez la connexion et que l’origine de ce
        site figure dans les origines CORS du projet.
      </p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        style={{
          font: 'inherit',
          padding: '4px 12px',
          border: '1px solid #b45309',
          borderRadius: 4,
          background: '#fff',
          cursor: 'pointer',
        }}
      >
        Recharger le Studio
      </button>
    </div>
  )
}
