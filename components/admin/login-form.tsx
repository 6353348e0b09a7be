'use client'

import { useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { AdminField } from './admin-field'
import { dismissToast, getToasts } from '@/lib/toast-store'

type LoginFormProps = { onSubmit: (email: string, password: string) => Promise<void>; busy: boolean }

/** The admin sign-in form (French only, spec §2). Messages are raised by the caller as toasts. */
export function LoginForm({ onSubmit, busy }: LoginFormProps) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  // The error toasts this form's attempts raised (« Email ou mot de passe incorrect »…). A successful
  // sign-in replaces the form with the inbox: they go with it, rather than stay beside « Connexion
  // réussie » and contradict it. A layout effect: they go in the very commit that shows the inbox.
  const raisedErrors = useRef<number[]>([])
  useLayoutEffect(() => {
    const raised = raisedErrors.current
    return () => raised.forEach(dismissToast)
  }, [])

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const before = new Set(getToasts().map((toast) => toast.id))
    await onSubmit(email.trim(), password)
    for (const toast of getToasts()) {
      if (toast.variant === 'error' && !before.has(toast.id)) raisedErrors.current.push(toast.id)
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-5" data-testid="admin-login-form">
      <AdminField
        id="admin-email"
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        disabled={busy}
      />
      <AdminField
        id="admin-password"
        label="Mot de passe"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        disabled={busy}
      />
      <button type="submit" disabled={busy} className={buttonClasses('primary', 'lg', 'w-full')}>
        {busy ? 'Connexion en cours...' : 'Se connecter'}
      </button>
    </form>
  )
}
