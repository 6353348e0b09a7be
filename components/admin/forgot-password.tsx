'use client'

import type { SupabaseClient } from '@supabase/supabase-js'
import { useId, useState, type FormEvent } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { AdminField } from './admin-field'
import { RECOVERY_SENT, RESET_PATH } from '@/lib/admin/password-recovery'
import { toast } from '@/lib/toast-store'
import { ADMIN_ERROR_TOAST } from '@/lib/admin/admin-error-toast'

/**
 * « Mot de passe oublié ? » under the sign-in: asks Supabase Auth to email a recovery link. The answer
 * is the same for any address (no way to learn who is an administrator); only too many requests, or
 * no answer at all, are said otherwise.
 */
export function ForgotPassword({ client }: { client: SupabaseClient }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(false)

  async function request(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const address = email.trim()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      toast({ variant: 'error', title: 'Adresse email invalide' })
      return
    }
    setBusy(true)
    try {
      const { error } = await client.auth.resetPasswordForEmail(address, {
        redirectTo: `${window.location.origin}${RESET_PATH}`,
      })
      if (error?.status === 429) {
        toast({
          variant: 'error',
          title: 'Trop de demandes',
          description: 'Veuillez patienter quelques minutes avant de réessayer.',
        })
      } else if (error && (!error.status || error.status >= 500)) {
        toast(ADMIN_ERROR_TOAST)
      } else {
        setSent(true)
      }
    } finally {
      setBusy(false)
    }
  }

  if (!open)
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="mt-4 text-sm font-semibold text-clay-strong underline underline-offset-4"
      >
        Mot de passe oublié ?
      </button>
    )
  return (
    <form
      onSubmit={request}
      noValidate
      className="mt-6 space-y-4 border-t border-line pt-6"
      data-testid="forgot-password"
    >
      <h2 className="font-sans text-lg font-semibold text-ink">Mot de passe oublié</h2>
      <p className="text-sm text-muted">Recevez par email un lien pour choisir un nouveau mot de passe.</p>
      <AdminField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        disabled={busy}
      />
      <button type="submit" disabled={busy} className={buttonClasses('secondary', 'md', 'w-full')}>
        {busy ? 'Envoi en cours...' : 'Envoyer le lien'}
      </button>
      <p role="status" className="text-sm text-ink" data-testid="forgot-password-status">
        {sent ? RECOVERY_SENT : ''}
      </p>
    </form>
  )
}
