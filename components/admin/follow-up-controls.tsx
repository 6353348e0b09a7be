'use client'

import { FOLLOW_UP_LABELS, FOLLOW_UPS, isOverdue, isWaiting, PROMISED_HOURS, replyMailto } from '@/lib/admin/follow-up'
import { formatSubmissionDate } from '@/lib/admin/inbox-format'
import type { FollowUp, Submission } from '@/lib/admin/submission'
import { revealInvisibleCharacters } from '@/supabase/functions/_shared/invisible-characters'

type Props = {
  submission: Submission
  onChange: (submission: Submission, followUp: FollowUp) => void
  /** The state before this session's last change of this message, which « Annuler » restores. */
  undo: FollowUp | null
}

const control = 'min-h-9 rounded-full px-3 py-1.5 text-sm font-semibold transition-colors'

/**
 * A message's follow-up on its card: past the promise, a flag; its state (« Suivi »); « Répondre »,
 * an email to the visitor in their language; « Marquer comme répondu » in one click, and « Annuler »
 * right after a change (the state can also be set back by hand).
 */
export function FollowUpControls({ submission, onChange, undo }: Props) {
  const selectId = `follow-up-${submission.id}`
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" data-testid="follow-up">
      {isOverdue(submission) ? (
        <span
          className="rounded-full border border-red-300 bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-800"
          data-testid="overdue-flag"
        >
          Sans réponse depuis plus de {PROMISED_HOURS} h
        </span>
      ) : null}
      <span className="inline-flex items-center gap-2">
        <label htmlFor={selectId} className="font-semibold text-ink">
          Suivi
        </label>
        <select
          id={selectId}
          value={submission.follow_up}
          onChange={(event) => onChange(submission, event.target.value as FollowUp)}
          className="min-h-9 rounded-full border border-control bg-white px-3 text-sm text-ink"
          data-testid="follow-up-select"
        >
          {FOLLOW_UPS.map((state) => (
            <option key={state} value={state}>
              {FOLLOW_UP_LABELS[state]}
            </option>
          ))}
        </select>
      </span>
      <a
        href={replyMailto(submission)}
        className={`${control} bg-ink text-paper hover:bg-ink-soft`}
        data-testid="reply"
        aria-label={`Répondre à ${revealInvisibleCharacters(submission.name)}${submission.locale === 'en' ? ' (en anglais)' : ''}`}
      >
        Répondre
      </a>
      {isWaiting(submission) ? (
        <button
          type="button"
          onClick={() => onChange(submission, 'answered')}
          className={`${control} border border-line text-ink hover:bg-sand`}
          data-testid="mark-answered"
        >
          Marquer comme répondu
        </button>
      ) : null}
      {submission.answered_at ? (
        <span className="text-muted" data-testid="answered-at">
          Répondu le <time dateTime={submission.answered_at}>{formatSubmissionDate(submission.answered_at)}</time>
        </span>
      ) : null}
      {undo ? (
        <button
          type="button"
          onClick={() => onChange(submission, undo)}
          className="text-sm font-semibold text-clay-strong underline underline-offset-4"
          data-testid="undo-follow-up"
          aria-label={`Annuler : revenir à « ${FOLLOW_UP_LABELS[undo]} »`}
        >
          Annuler
        </button>
      ) : null}
    </div>
  )
}
