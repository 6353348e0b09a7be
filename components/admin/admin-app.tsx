'use client'

import type { SupabaseClient } from '@supabase/supabase-js'
import { useRouter } from 'next/navigation'
import { useCallback, useEffect, useState } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { Spinner } from '@/components/ui/spinner'
import { isAdmin } from '@/lib/admin/inbox-api'
import { endSession, getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import { toast } from '@/lib/toast-store'
import { Inbox } from './inbox'
import { ForgotPassword } from './forgot-password'
import { LoginForm } from './login-form'
import { ADMIN_ERROR_TOAST } from '@/lib/admin/admin-error-toast'

type State = 'checking' | 'signed-out' | 'admin' | 'unreachable'

/**
 * The hidden inbox (spec §4): not signed in → login form → signed in as admin → messages.
 * A signed-in user without the admin role is refused and signed out at once (§6, §7.4).
 */
export function AdminApp() {
  const router = useRouter()
  const [client] = useState<SupabaseClient>(() => getSupabaseBrowserClient())
  const [state, setState] = useState<State>('checking')
  const [busy, setBusy] = useState(false)
  /** Bumped by « Réessayer »: the stored session is checked again. */
  const [attempt, setAttempt] = useState(0)

  const refuse = useCallback(async () => {
    // Signed out before it is said: once the refusal shows, the browser holds no session (on a busy
    // machine the notice came first and the session was still stored for a moment).
    await endSession(client)
    toast({ variant: 'error', title: 'Accès non autorisé' })
    setState('signed-out')
  }, [client])

  useEffect(() => {
    let cancelled = false
    async function restore() {
      const { data } = await client.auth.getSession()
      const user = data.session?.user
      if (!user) return !cancelled && setState('signed-out')
      try {
        if (await isAdmin(client, user.id)) return !cancelled && setState('admin')
        if (!cancelled) await refuse()
      } catch {
        // Still signed in, but the role could not be read (Supabase down or hanging): said as such,
        // not as a sign-in form that would look like being signed out.
        if (!cancelled) setState('unreachable')
      }
    }
    void restore()
    return () => {
      cancelled = true
    }
  }, [client, refuse, attempt])

  async function signIn(email: string, password: string) {
    if (!email || !password) {
      toast({ variant: 'error', title: 'Veuillez remplir tous les champs' })
      return
    }
    setBusy(true)
    try {
      const { data, error } = await client.auth.signInWithPassword({ email, password })
      if (error || !data.user) {
        if (error?.status === 429) {
          toast({
            variant: 'error',
            title: 'Trop de tentatives de connexion',
            description: 'Veuillez patienter quelques minutes avant de réessayer.',
          })
        } else if (error?.code === 'invalid_credentials' || error?.status === 400) {
          toast({ variant: 'error', title: 'Email ou mot de passe incorrect' })
        } else {
          toast(ADMIN_ERROR_TOAST)
        }
        return
      }
      if (await isAdmin(client, data.user.id)) {
        toast({ variant: 'success', title: 'Connexion réussie' })
        setState('admin')
      } else {
        await refuse()
      }
    } catch {
      toast(ADMIN_ERROR_TOAST)
    } finally {
      setBusy(false)
    }
  }

  async function signOut() {
    await endSession(client)
    setState('signed-out')
    router.push('/')
  }

  if (state === 'checking') return <Spinner label="Chargement..." />
  if (state === 'unreachable')
    return (
      <div className="mx-auto max-w-md rounded-card border border-line bg-white p-6 shadow-card sm:p-8">
        <h1 className="text-3xl font-semibold text-ink">Administration</h1>
        <p className="mt-2 text-muted" role="alert" data-testid="admin-unreachable">
          {ADMIN_ERROR_TOAST.title}. {ADMIN_ERROR_TOAST.description}
        </p>
        <button
          type="button"
          onClick={() => {
            setState('checking')
            setAttempt((count) => count + 1)
          }}
          className={buttonClasses('primary', 'md', 'mt-6')}
        >
          Réessayer
        </button>
      </div>
    )
  if (state === 'admin') return <Inbox client={client} onSignOut={signOut} />
  return (
    <div className="mx-auto max-w-md rounded-card border border-line bg-white p-6 shadow-card sm:p-8">
      <h1 className="text-3xl font-semibold text-ink">Administration</h1>
      <p className="mt-2 mb-6 text-muted">Connectez-vous pour consulter les messages reçus.</p>
      <LoginForm onSubmit={signIn} busy={busy} />
      <ForgotPassword client={client} />
    </div>
  )
}
