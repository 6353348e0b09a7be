import type { ToastVariant } from '@/lib/toast-store'
import { formatSubmissionDate } from './inbox-format.ts'
import type { ResendOutcome } from './notification-api'
import type { Submission } from './submission'
import { ADMIN_ERROR_TOAST } from '@/lib/admin/admin-error-toast'

/*
 * The inbox's texts about what the agency was told of each message (docs/decisions.md lists them).
 * French only, like the rest of the inbox.
 */

/** « Notification envoyée le 10 décembre 2026 à 14:05 » or « Notification non envoyée ». */
export function notificationStatusText(submission: Pick<Submission, 'notified_at'>): string {
  return submission.notified_at
    ? `Notification envoyée le ${formatSubmissionDate(submission.notified_at)}`
    : 'Notification non envoyée'
}

/** What follows « Notification non envoyée », in brackets, when there is more to say; null otherwise. */
export function notificationDetail(
  submission: Pick<Submission, 'notification_status' | 'notification_next_attempt_at' | 'notification_attempts'>,
): string | null {
  if (submission.notification_status === 'sending') return 'envoi en cours'
  if (submission.notification_status !== 'delivery_failed') return null
  if (submission.notification_next_attempt_at)
    return `nouvel essai automatique le ${formatSubmissionDate(submission.notification_next_attempt_at)}`
  const attempts = submission.notification_attempts
  return attempts <= 1 ? `échec après ${attempts} tentative` : `échec après ${attempts} tentatives`
}

/**
 * Why the last attempt failed, in plain French, from the technical reason the function recorded
 * (nodemailer's code and the mail server's answer, e.g. « ETIMEDOUT: Greeting never received »): the
 * card shows this, and the raw reason in a detail the administrator can open.
 */
export function notificationReason(error: string | null): string | null {
  if (!error) return null
  const code = /^([A-Z][A-Z_]+):/.exec(error)?.[1]
  if (code === 'ETIMEDOUT' || /timed? ?out|never received/i.test(error))
    return "le serveur de messagerie n'a pas répondu"
  if (code === 'EAUTH' || /\b53[045]\b/.test(error)) return 'le serveur de messagerie a refusé nos identifiants'
  if (code === 'EENVELOPE' || /\b55[0-4]\b|recipient|rejected/i.test(error))
    return 'adresse refusée par le serveur de messagerie'
  if (
    code === 'ECONNECTION' ||
    code === 'EDNS' ||
    code === 'ESOCKET' ||
    /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET/.test(error)
  )
    return 'le serveur de messagerie est injoignable'
  if (code === 'ETLS') return 'la connexion chiffrée au serveur de messagerie a échoué'
  if (/\b4\d\d\b/.test(error)) return 'le serveur de messagerie a demandé de réessayer plus tard'
  return 'le serveur de messagerie a renvoyé une erreur'
}

/** The card's words in one line, for the CSV: « Notification non envoyée (échec après 4 tentatives) ». */
export function notificationSummary(submission: Submission): string {
  const detail = submission.notified_at ? null : notificationDetail(submission)
  return detail ? `${notificationStatusText(submission)} (${detail})` : notificationStatusText(submission)
}

/** 'n message(s) non notifié(s)': the count while the « Non notifiées » filter is on. */
export function unnotifiedCountLabel(count: number): string {
  return count <= 1 ? `${count} message non notifié` : `${count} messages non notifiés`
}

/** The toast after « Renvoyer la notification ». */
export function resendToast(outcome: ResendOutcome): { variant: ToastVariant; title: string; description?: string } {
  switch (outcome) {
    case 'sent':
      return { variant: 'success', title: 'Notification renvoyée' }
    case 'too_soon':
      return { variant: 'error', title: 'Veuillez patienter une minute avant de renvoyer cette notification.' }
    case 'gone':
      return { variant: 'info', title: "Ce message n'existe plus", description: 'La liste a été actualisée.' }
    case 'already_sent':
      return { variant: 'info', title: 'Cette notification a déjà été envoyée' }
    case 'in_progress':
      return { variant: 'info', title: "Cette notification est en cours d'envoi" }
    case 'delivery_failed':
      return {
        variant: 'error',
        title: "La notification n'a pas pu être envoyée",
        description: 'Veuillez réessayer dans une minute.',
      }
    case 'forbidden':
      return { variant: 'error', title: 'Accès non autorisé' }
    default:
      return ADMIN_ERROR_TOAST
  }
}
