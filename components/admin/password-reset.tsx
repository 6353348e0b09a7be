'use client'

import type { SupabaseClient } from '@supabase/supabase-js'
import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { useEffect, useState, type FormEvent } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { AdminField } from './admin-field'
import { INBOX_PATH } from '@/lib/admin/password-recovery'
import { MIN_PASSWORD_LENGTH, passwordWeakness } from '@/lib/admin/password-policy'
import { getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import { toast } from '@/lib/toast-store'

type RecoveryLink = { tokenHash: string } | 'missing'

const EXPIRED = 'Ce lien n’est plus valable : il sert une fois et expire après une heure. Demandez-en un nouveau.'

/**
 * The recovery link's page: a new password under the same policy as `npm run admin:create`, twice.
 * The link's token is exchanged for a session only on submit (a mail scanner opening the link does not
 * spend it), then the password is set and the administrator lands in the inbox, signed in.
 */
export function PasswordReset() {
  const router = useRouter()
  const [client] = useState<SupabaseClient>(() => getSupabaseBrowserClient())
  const [link, setLink] = useState<RecoveryLink | null>(null)
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState('')
  const [verified, setVerified] = useState(false)

  useEffect(() => {
    const params = new URLSearchParams(window.location.search)
    const tokenHash = params.get('token_hash')
    // The token leaves the address bar (and the history) once read.
    if (tokenHash) window.history.replaceState(null, '', window.location.pathname)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is only readable in the browser
    setLink(tokenHash && params.get('type') === 'recovery' ? { tokenHash } : 'missing')
  }, [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (link === null || link === 'missing') return
    if (!password) return setProblem('Saisissez un nouveau mot de passe.')
    const weakness = passwordWeakness(password, '', 'fr')
    if (weakness) return setProblem(`Mot de passe refusé : ${weakness}.`)
    if (password !== confirmation) return setProblem('Les deux mots de passe ne sont pas identiques.')
    setProblem('')
    setBusy(true)
    try {
      if (!verified) {
        const { error } = await client.auth.verifyOtp({ token_hash: link.tokenHash, type: 'recovery' })
        if (error)
          return setProblem(error.status && error.status < 500 ? EXPIRED : 'Une erreur s’est produite. Réessayez.')
        setVerified(true)
      }
      const { error } = await client.auth.updateUser({ password })
      if (error?.code === 'same_password') return setProblem('Choisissez un mot de passe différent de l’ancien.')
      // The service's own rules (a hosted project may add some) explain themselves in English: said in French.
      if (error?.code === 'weak_password')
        return setProblem(
          'Mot de passe refusé par le service de connexion : choisissez-en un plus long et moins courant.',
        )
      if (error) return setProblem('Une erreur s’est produite. Réessayez.')
      toast({ variant: 'success', title: 'Mot de passe modifié' })
      router.push(INBOX_PATH)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="mx-auto max-w-md rounded-card border border-line bg-white p-6 shadow-card sm:p-8">
      <h1 className="text-3xl font-semibold text-ink">Nouveau mot de passe</h1>
      {link === 'missing' ? (
        <p className="mt-4 text-ink" data-testid="reset-problem">
          Ce lien est incomplet. Demandez un nouveau lien depuis la{' '}
          <Link href={INBOX_PATH} className="text-clay-strong underline underline-offset-4">
            page de connexion
          </Link>
          .
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="mt-6 space-y-5" data-testid="password-reset-form">
          <p className="text-sm text-muted">
            Au moins {MIN_PASSWORD_LENGTH} caractères, avec des minuscules, des majuscules et des chiffres.
          </p>
          <AdminField
            id="new-password"
            label="Nouveau mot de passe"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            disabled={busy || link === null}
            aria-describedby="reset-problem"
          />
          <AdminField
            id="new-password-again"
            label="Confirmer le mot de passe"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={setConfirmation}
            disabled={busy || link === null}
          />
          <p id="reset-problem" role="alert" className="text-sm font-semibold text-red-800" data-testid="reset-problem">
            {problem}
          </p>
          {problem === EXPIRED ? (
            <Link
              href={INBOX_PATH}
              className="block w-fit text-sm font-semibold text-clay-strong underline underline-offset-4"
            >
              Demander un nouveau lien
            </Link>
          ) : null}
          <button type="submit" disabled={busy || link === null} className={buttonClasses('primary', 'lg', 'w-full')}>
            {busy ? 'Enregistrement...' : 'Enregistrer le mot de passe'}
          </button>
        </form>
      )}
    </div>
  )
}
