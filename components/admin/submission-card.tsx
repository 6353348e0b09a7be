'use client'

import { mailtoAddress } from '@/lib/admin/follow-up'
import { formatSubmissionDate } from '@/lib/admin/inbox-format'
import { notificationDetail, notificationReason } from '@/lib/admin/notification-format'
import type { FollowUp, Submission } from '@/lib/admin/submission'
import { MESSAGE_WHITESPACE, revealInvisibleCharacters } from '@/supabase/functions/_shared/invisible-characters'
import { FollowUpControls } from './follow-up-controls'
import { VisibleText } from './visible-text'

type Props = {
  submission: Submission
  onToggleRead: (submission: Submission) => void
  onDelete: (submission: Submission) => void
  onDeleteAllFromEmail: (email: string) => void
  onResendNotification: (submission: Submission) => void
  /** This message's « Renvoyer la notification » is waiting for its answer. */
  resending: boolean
  onFollowUp: (submission: Submission, followUp: FollowUp) => void
  /** The state « Annuler » restores after this session's last change of it, if any. */
  undoFollowUp: FollowUp | null
}

/**
 * One message. Every field is rendered as text by React: HTML or scripts in a message stay inert, and
 * invisible characters show as marks (VisibleText).
 */
export function SubmissionCard({
  submission,
  onToggleRead,
  onDelete,
  onDeleteAllFromEmail,
  onResendNotification,
  resending,
  onFollowUp,
  undoFollowUp,
}: Props) {
  const unread = !submission.is_read
  const action = 'rounded-full px-3 py-1.5 text-sm font-semibold transition-colors'
  return (
    // Long words (an address, a link, a word without spaces) break rather than push a phone's page sideways.
    <article
      className={`rounded-card border bg-white p-5 shadow-card wrap-anywhere sm:p-6 ${unread ? 'border-clay/50 border-l-4 border-l-clay' : 'border-line'}`}
      data-testid="submission"
      data-submission-id={submission.id}
      data-unread={unread ? 'true' : 'false'}
      data-follow-up={submission.follow_up}
      // The inbox moves the focus here when the message before it is deleted.
      tabIndex={-1}
      aria-label={`Message de ${revealInvisibleCharacters(submission.name)}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="flex flex-wrap items-center gap-2 font-sans text-lg font-semibold text-ink">
            <VisibleText text={submission.name} />
            {unread ? (
              <span className="rounded-full bg-clay px-2 py-0.5 text-xs font-semibold text-white">Non lu</span>
            ) : null}
            {submission.package ? (
              <span
                className="rounded-full bg-sand px-2.5 py-0.5 text-xs font-semibold text-clay-strong"
                data-testid="submission-package"
              >
                Forfait&nbsp;: <VisibleText text={submission.package} />
              </span>
            ) : null}
            {submission.locale === 'en' ? (
              // The visitor wrote from the English site: the agency answers in English.
              <span
                className="rounded-full bg-ink px-2 py-0.5 text-xs font-semibold text-white"
                data-testid="submission-locale"
                lang="fr"
              >
                En anglais
              </span>
            ) : null}
          </h2>
          <p className="mt-1 text-sm text-muted">
            <time dateTime={submission.created_at}>{formatSubmissionDate(submission.created_at)}</time>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => onToggleRead(submission)}
            className={`${action} border border-line text-ink hover:bg-sand`}
          >
            {unread ? 'Marquer comme lu' : 'Marquer comme non lu'}
          </button>
          <button
            type="button"
            onClick={() => onDelete(submission)}
            className={`${action} border border-red-200 text-red-800 hover:bg-red-50`}
          >
            Supprimer
          </button>
        </div>
      </header>
      {/* After the header's buttons: from the card, Tab reaches « Marquer comme lu » first. */}
      <NotificationStatus submission={submission} onResend={onResendNotification} resending={resending} />
      <FollowUpControls submission={submission} onChange={onFollowUp} undo={undoFollowUp} />
      <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-ink">Email</dt>
        <dd>
          <a
            href={`mailto:${mailtoAddress(submission.email)}?subject=${encodeURIComponent('Re : votre message')}`}
            className="text-clay-strong underline underline-offset-4"
            data-testid="submission-email"
          >
            <VisibleText text={submission.email} />
          </a>
          <button
            type="button"
            onClick={() => onDeleteAllFromEmail(submission.email)}
            className="ml-3 text-xs font-semibold text-red-800 underline underline-offset-2"
          >
            Supprimer tous ses messages
          </button>
        </dd>
        {submission.phone ? (
          <>
            <dt className="font-semibold text-ink">Téléphone</dt>
            <dd>
              <a
                href={`tel:${submission.phone.replace(/[^\d+]/g, '')}`}
                className="text-clay-strong underline underline-offset-4"
                data-testid="submission-phone"
              >
                <VisibleText text={submission.phone} />
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      <p
        className="mt-4 rounded-xl bg-paper p-4 leading-relaxed whitespace-pre-wrap text-ink-soft"
        data-testid="submission-message"
      >
        <VisibleText text={submission.message} keep={MESSAGE_WHITESPACE} />
      </p>
    </article>
  )
}

/**
 * What the agency was told of this message: « Notification envoyée le … », or « Notification non
 * envoyée » (with why, when known) and « Renvoyer la notification ». While the resend waits for its
 * answer the button says so and ignores clicks, but stays enabled so the keyboard focus stays on it.
 */
function NotificationStatus({
  submission,
  onResend,
  resending,
}: {
  submission: Submission
  onResend: (submission: Submission) => void
  resending: boolean
}) {
  if (submission.notified_at) {
    return (
      <p className="mt-2 text-sm text-muted" data-testid="notification-status" data-notified="true">
        Notification envoyée le{' '}
        <time dateTime={submission.notified_at}>{formatSubmissionDate(submission.notified_at)}</time>
      </p>
    )
  }
  const detail = notificationDetail(submission)
  const reason =
    submission.notification_status === 'delivery_failed'
      ? notificationReason(submission.notification_error ?? null)
      : null
  return (
    <div
      className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-red-800"
      data-testid="notification-status"
      data-notified="false"
    >
      <span>
        Notification non envoyée
        {detail ? <span className="text-muted"> ({detail})</span> : null}
      </span>
      <button
        type="button"
        onClick={() => {
          if (!resending) onResend(submission)
        }}
        aria-disabled={resending}
        className="rounded-full border border-line px-3 py-1 text-xs font-semibold text-ink transition-colors hover:bg-sand aria-disabled:cursor-wait aria-disabled:opacity-70"
      >
        {resending ? 'Envoi en cours...' : 'Renvoyer la notification'}
      </button>
      {reason ? (
        <details className="basis-full text-muted" data-testid="notification-reason">
          <summary className="cursor-pointer">Pourquoi : {reason}</summary>
          <code className="mt-1 block break-all text-xs">{submission.notification_error}</code>
        </details>
      ) : null}
    </div>
  )
}
