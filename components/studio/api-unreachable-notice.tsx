'use client'

import { useEffect, useState, type ReactNode } from 'react'
import { sanityApiHost, sanityProjectId } from '@/lib/sanity/env'

/** How long the probe waits: Chromium fails a certificate it does not trust at once; a hang is cut here. */
const PROBE_DEADLINE_MS = 8_000

/**
 * Tells the editor, within seconds, when this browser cannot reach the Content Lake's API at all, and
 * what to do. The Studio itself, in that case, retries with a spinner for minutes on some Chromium
 * releases (150) before its own « Network error », or never shows it; its console names the cause
 * (ERR_CERT_AUTHORITY_INVALID) where no editor looks. The probe is the request the Studio would make, to
 * the same origin, without CORS (`no-cors`: any HTTP answer, even an error status, proves the origin
 * reachable and its certificate trusted): only a failure to connect shows this notice; an origin that
 * answers with a server error (5xx: a gateway's 502, an outage's 503) shows another. Offline, the
 * usual cause is the local Content Lake's certificate, not trusted yet: the notice names the command.
 * Both origins the Studio calls are probed, the project's (`<id>.<host>`: content) and the API host's
 * (sign-in, the user): a browser accepts a certificate warning for one host name at a time.
 */
export function ApiUnreachableNotice() {
  const [unreachable, setUnreachable] = useState<string[]>([])
  // An origin that answers, but with a server error (a 502 from a gateway, a 503 in an outage): the
  // Studio then shows a spinner and retries for as long as it lasts, saying nothing.
  const [failing, setFailing] = useState<{ origin: string; status: number } | null>(null)
  const api = new URL(sanityApiHost)
  const projectOrigin = `${api.protocol}//${sanityProjectId}.${api.host}`
  const apiOrigin = api.origin

  useEffect(() => {
    let current = true
    const probe = (origin: string) =>
      fetch(`${origin}/v1/ping`, { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(PROBE_DEADLINE_MS) })
        .then(() => null)
        .catch(() => origin)
    // The status needs an answer the page may read (CORS): the project's origin lets the Studio's
    // origin read it, as it must for the Studio to work at all, and Sanity's /ping allows any origin.
    // A gateway's own error page usually carries no CORS header: that one cannot be read, and nothing
    // is said (the Studio's spinner stays), rather than a guess.
    const status = (origin: string) =>
      fetch(`${origin}/v1/ping`, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_DEADLINE_MS) })
        .then((response) => (response.status >= 500 ? { origin, status: response.status } : null))
        .catch(() => null)
    void Promise.all([projectOrigin, apiOrigin].map(probe)).then(async (failed) => {
      const down = failed.filter((origin): origin is string => origin !== null)
      if (!current) return
      setUnreachable(down)
      if (down.length === 0) {
        const answer = await status(projectOrigin)
        if (current) setFailing(answer)
      }
    })
    return () => {
      current = false
    }
  }, [projectOrigin, apiOrigin])

  if (failing)
    return (
      <Notice>
        <p style={{ margin: '0 0 6px', fontWeight: 600 }}>
          L’API de contenu répond par une erreur ({failing.status}, {failing.origin}).
        </p>
        <p style={{ margin: '0 0 6px' }}>
          Le service est sans doute momentanément indisponible : le Studio attend qu’il revienne. Rechargez-le dans un
          instant ; si l’erreur demeure, consultez l’état du service (status.sanity.io pour un projet hébergé).
        </p>
      </Notice>
    )
  if (unreachable.length === 0) return null
  return (
    <Notice>
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
    </Notice>
  )
}

/** The notice's frame, above the Studio, with the way to load it again. */
function Notice({ children }: { children: ReactNode }) {
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
      {children}
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
