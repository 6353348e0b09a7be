'use client'

import type { SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ConfirmDialog, type Confirmation } from './confirm-dialog'
import { buttonClasses } from '@/components/ui/button-styles'
import { Spinner } from '@/components/ui/spinner'
import {
  deleteSubmission,
  deleteSubmissionsByEmail,
  fetchAllMatching,
  fetchInboxPage,
  PAGE_SIZE,
  setFollowUp,
  setRead,
  type InboxPage,
  type InboxView,
} from '@/lib/admin/inbox-api'
import { FOLLOW_UP_LABELS } from '@/lib/admin/follow-up'
import { deletedCountLabel, deletionAnnouncement, viewCountLabel, type DeletedMessages } from '@/lib/admin/inbox-format'
import { resendNotification } from '@/lib/admin/notification-api'
import { resendToast, unnotifiedCountLabel } from '@/lib/admin/notification-format'
import type { FollowUp, Submission } from '@/lib/admin/submission'
import { submissionsToCsv } from '@/lib/admin/submissions-csv'
import { toast } from '@/lib/toast-store'
import { parisDay } from '@/supabase/functions/_shared/french-date'
import { revealInvisibleCharacters } from '@/supabase/functions/_shared/invisible-characters'
import { InboxHeader } from './inbox-header'
import { InboxOverview } from './inbox-overview'
import { InboxToolbar } from './inbox-toolbar'
import { SubmissionCard } from './submission-card'
import { ADMIN_ERROR_TOAST } from '@/lib/admin/admin-error-toast'

type Props = { client: SupabaseClient; onSignOut: () => void }

/** A deletion done, waiting for the reloaded list: what went, and where its card was. */
type PendingDeletion = { deleted: DeletedMessages; index: number; page: number }
/** Where the focus goes once the list is reloaded: a message by id, or (null) the list's heading. */
type FocusTarget = { id: string | null }

/**
 * The list of messages: the overview, server-side pages of 50, search, which messages to show (by
 * follow-up state; « À répondre »), the « Non notifiées » filter, read state, follow-up, deletion,
 * resending a notification and CSV export.
 */
export function Inbox({ client, onSignOut }: Props) {
  const [page, setPage] = useState(0)
  const [searchInput, setSearchInput] = useState('')
  const [search, setSearch] = useState('')
  const [unnotifiedOnly, setUnnotifiedOnly] = useState(false)
  const [view, setView] = useState<InboxView>('open')
  const [version, setVersion] = useState(0)
  const key = `${page}\u0000${search}\u0000${unnotifiedOnly}\u0000${view}\u0000${version}`
  // What was last loaded, and for which request: loading is "the result is not for this key yet".
  const [result, setResult] = useState<{ key: string; data: InboxPage | null; failed: boolean }>({
    key: '',
    data: null,
    failed: false,
  })
  const loading = result.key !== key
  const data = result.data
  const failed = !loading && result.failed
  // Reloading the same page and search after an action (read state, deletion) keeps the list on
  // screen until the new one lands: replacing it with the spinner would drop the keyboard focus.
  const listed = (requestKey: string) => requestKey.slice(0, requestKey.lastIndexOf('\u0000'))
  const refreshing = loading && data !== null && listed(result.key) === listed(key)
  const reload = () => setVersion((value) => value + 1)
  /*
   * A deleted message's card disappears with the focus it held (its « Supprimer » button). Once the
   * list is reloaded the focus goes to the message that took its place (the next one), else to the
   * one before it (it was the last), else to the heading (none is left); a live region says what was
   * deleted and what is left.
   */
  const pendingDeletion = useRef<PendingDeletion | null>(null)
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  const list = useRef<HTMLDivElement>(null)
  /** The messages whose « Renvoyer la notification » waits for its answer. */
  const [resending, setResending] = useState<ReadonlySet<string>>(new Set())
  /** Per message, the follow-up state before this session's last change, which « Annuler » restores. */
  const [undoStates, setUndoStates] = useState<ReadonlyMap<string, FollowUp>>(new Map())
  /** A message whose follow-up changed: if it left the view, the focus goes where it was. */
  const pendingMove = useRef<{ id: string; index: number } | null>(null)
  /** The deletion waiting for the administrator's word (ConfirmDialog), if any. */
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null)

  // The search runs 300 ms after the last keystroke, from the first page.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchInput)
      setPage(0)
    }, 300)
    return () => clearTimeout(timer)
  }, [searchInput])

  useEffect(() => {
    let cancelled = false
    fetchInboxPage(client, page, search, { unnotifiedOnly, view })
      .then((loaded) => {
        if (cancelled) return
        const lastPage = Math.max(0, Math.ceil(loaded.total / PAGE_SIZE) - 1)
        // Deletions emptied this page: show the last page that still has messages.
        if (page > lastPage) return setPage(lastPage)
        setResult({ key, data: loaded, failed: false })
        const moved = pendingMove.current
        pendingMove.current = null
        if (moved && !loaded.rows.some((row) => row.id === moved.id))
          setFocusTarget({ id: loaded.rows[Math.min(moved.index, loaded.rows.length - 1)]?.id ?? null })
        const deletion = pendingDeletion.current
        if (!deletion) return
        pendingDeletion.current = null
        setAnnouncement(deletionAnnouncement(deletion.deleted, loaded.total))
        const rows = loaded.rows
        // A page that stepped back (the deleted message was alone on the last one): its last message
        // is the one before.
        const at = page < deletion.page ? rows.length - 1 : Math.min(deletion.index, rows.length - 1)
        setFocusTarget({ id: rows[at]?.id ?? null })
      })
      .catch(() => {
        if (cancelled) return
        setResult((previous) => ({ key, data: previous.data, failed: true }))
        toast({ variant: 'error', title: 'Erreur lors du chargement des soumissions' })
        const deletion = pendingDeletion.current
        if (!deletion) return
        pendingDeletion.current = null
        setAnnouncement(deletionAnnouncement(deletion.deleted, null))
        setFocusTarget({ id: null })
      })
    return () => {
      cancelled = true
    }
  }, [client, page, search, unnotifiedOnly, view, key])

  useEffect(() => {
    if (!focusTarget) return
    const card =
      focusTarget.id === null
        ? null
        : list.current?.querySelector<HTMLElement>(`[data-submission-id="${CSS.escape(focusTarget.id)}"]`)
    ;(card ?? heading.current)?.focus()
  }, [focusTarget])

  const act = useCallback(async (work: () => Promise<void>, success?: string) => {
    try {
      await work()
      if (success) toast({ variant: 'success', title: success })
    } catch {
      toast(ADMIN_ERROR_TOAST)
    }
    reload()
  }, [])

  const toggleRead = (submission: Submission) => act(() => setRead(client, submission.id, !submission.is_read))
  /** Where a card is in the list on screen, for the focus after its deletion. */
  const indexOf = (found: (row: Submission) => boolean) => Math.max(0, data?.rows.findIndex(found) ?? 0)
  /** A new follow-up state; undoing (back to the remembered state) forgets it, any other change remembers. */
  const changeFollowUp = (submission: Submission, followUp: FollowUp) => {
    if (followUp === submission.follow_up) return
    const undoing = undoStates.get(submission.id) === followUp
    pendingMove.current = { id: submission.id, index: indexOf((row) => row.id === submission.id) }
    void act(async () => {
      await setFollowUp(client, submission.id, followUp)
      // Only a change that was made can be undone (a refused one leaves the card as it was).
      setUndoStates((states) => {
        const next = new Map(states)
        if (undoing) next.delete(submission.id)
        else next.set(submission.id, submission.follow_up)
        return next
      })
      setAnnouncement(`Message de ${revealInvisibleCharacters(submission.name)} : « ${FOLLOW_UP_LABELS[followUp]} ».`)
    })
  }
  const remove = (submission: Submission) =>
    setConfirmation({
      title: 'Supprimer ce message ?',
      description: `Le message de ${revealInvisibleCharacters(submission.name)} sera supprimé définitivement.`,
      confirmLabel: 'Supprimer le message',
      onConfirm: () => {
        const index = indexOf((row) => row.id === submission.id)
        void act(async () => {
          await deleteSubmission(client, submission.id)
          pendingDeletion.current = { deleted: { name: revealInvisibleCharacters(submission.name) }, index, page }
        }, 'Message supprimé')
      },
    })
  const removeAllFrom = (email: string) =>
    setConfirmation({
      title: 'Supprimer tous ses messages ?',
      description: `Tous les messages de ${revealInvisibleCharacters(email)} seront supprimés définitivement.`,
      confirmLabel: 'Supprimer tous ses messages',
      onConfirm: () => {
        const index = indexOf((row) => row.email === email)
        void act(async () => {
          const count = await deleteSubmissionsByEmail(client, email)
          pendingDeletion.current = { deleted: { email: revealInvisibleCharacters(email), count }, index, page }
          toast({ variant: 'success', title: deletedCountLabel(count) })
        })
      },
    })

  /*
   * Resending: the toast says what happened. A message sent now keeps the focus on its card (its button
   * goes); one that no longer exists (purged meanwhile) leaves the list as a deletion does.
   */
  async function resend(submission: Submission) {
    if (resending.has(submission.id)) return
    setResending((ids) => new Set(ids).add(submission.id))
    const index = indexOf((row) => row.id === submission.id)
    const outcome = await resendNotification(client, submission.id)
    toast(resendToast(outcome))
    if (outcome === 'gone')
      pendingDeletion.current = { deleted: { name: revealInvisibleCharacters(submission.name) }, index, page }
    else if (outcome === 'sent' || outcome === 'already_sent') setFocusTarget({ id: submission.id })
    setResending((ids) => new Set([...ids].filter((id) => id !== submission.id)))
    reload()
  }

  async function exportCsv() {
    try {
      const rows = await fetchAllMatching(client, search, { unnotifiedOnly, view })
      const blob = new Blob([submissionsToCsv(rows)], { type: 'text/csv;charset=utf-8' })
      const url = URL.createObjectURL(blob)
      const link = document.createElement('a')
      link.href = url
      link.download = `messages-${parisDay(new Date())}.csv`
      link.click()
      URL.revokeObjectURL(url)
    } catch {
      toast({ variant: 'error', title: "L'export a échoué", description: 'Veuillez réessayer plus tard.' })
    }
  }

  const total = data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))

  return (
    <div>
      <InboxHeader
        heading={heading}
        data={data}
        countLabel={unnotifiedOnly ? unnotifiedCountLabel(total) : viewCountLabel(view, total)}
        onShowWaiting={() => {
          setView('waiting')
          setPage(0)
        }}
        onExport={exportCsv}
        onSignOut={onSignOut}
      />
      <InboxOverview client={client} version={version} />
      <InboxToolbar
        search={searchInput}
        onSearch={setSearchInput}
        view={view}
        onView={(value) => {
          setView(value)
          setPage(0)
        }}
        unnotifiedOnly={unnotifiedOnly}
        onUnnotifiedOnly={(value) => {
          setUnnotifiedOnly(value)
          setPage(0)
        }}
      />
      <p role="status" className="sr-only" data-testid="inbox-announcement">
        {announcement}
      </p>
      <div ref={list} className="mt-6 space-y-4" aria-busy={loading}>
        {loading && !refreshing ? (
          <Spinner label="Chargement des messages..." />
        ) : failed ? (
          <p className="rounded-card border border-red-200 bg-red-50 p-6 text-red-900">
            Erreur lors du chargement des soumissions
          </p>
        ) : data && data.rows.length === 0 ? (
          <p className="rounded-card border border-line bg-white p-10 text-center text-muted" data-testid="empty-inbox">
            {search
              ? 'Aucun message ne correspond à votre recherche'
              : unnotifiedOnly
                ? 'Aucun message non notifié'
                : view === 'open' || view === 'all'
                  ? 'Aucune soumission pour le moment'
                  : view === 'waiting'
                    ? 'Aucun message n’attend de réponse'
                    : 'Aucun message dans cette catégorie'}
          </p>
        ) : (
          data?.rows.map((submission) => (
            <SubmissionCard
              key={submission.id}
              submission={submission}
              onToggleRead={toggleRead}
              onDelete={remove}
              onDeleteAllFromEmail={removeAllFrom}
              onResendNotification={resend}
              resending={resending.has(submission.id)}
              onFollowUp={changeFollowUp}
              undoFollowUp={undoStates.get(submission.id) ?? null}
            />
          ))
        )}
      </div>
      {pages > 1 ? (
        <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-4">
          <button
            type="button"
            onClick={() => setPage((value) => value - 1)}
            disabled={page === 0 || loading}
            className={buttonClasses('secondary', 'sm')}
          >
            Précédent
          </button>
          <p className="text-sm text-muted" data-testid="page-indicator">
            Page {page + 1} sur {pages}
          </p>
          <button
            type="button"
            onClick={() => setPage((value) => value + 1)}
            disabled={page + 1 >= pages || loading}
            className={buttonClasses('secondary', 'sm')}
          >
            Suivant
          </button>
        </nav>
      ) : null}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </div>
  )
}
