import { frenchDate } from '@/supabase/functions/_shared/french-date'
import type { FollowUp, Submission } from './submission'

/*
 * What the agency does with a message (the migration 20261229100000): its follow-up states, the site's
 * promise (« Réponse sous 24h », the contact page) and the reply an administrator starts from a card.
 */

export const FOLLOW_UPS: readonly FollowUp[] = ['new', 'in_progress', 'answered', 'archived']

export const FOLLOW_UP_LABELS: Record<FollowUp, string> = {
  new: 'Nouveau',
  in_progress: 'En cours',
  answered: 'Répondu',
  archived: 'Archivé',
}

/** The contact page promises an answer within this many hours. */
export const PROMISED_HOURS = 24
const PROMISED_MS = PROMISED_HOURS * 3_600_000

/** Neither answered nor archived: the agency still owes an answer. */
export const isWaiting = (submission: Pick<Submission, 'follow_up'>) =>
  submission.follow_up === 'new' || submission.follow_up === 'in_progress'

/** Waiting for longer than the promise allows. */
export function isOverdue(submission: Pick<Submission, 'follow_up' | 'created_at'>, now = Date.now()): boolean {
  return isWaiting(submission) && now - Date.parse(submission.created_at) > PROMISED_MS
}

/** The inbox header's count: '1 message sans réponse depuis plus de 24 h', 'n messages …'. */
export function overdueCountLabel(count: number): string {
  return `${count} ${count <= 1 ? 'message' : 'messages'} sans réponse depuis plus de ${PROMISED_HOURS} h`
}

/** An address in a mailto: URL, its ?, &, # and % escaped so it stays the address. */
export const mailtoAddress = (email: string) => email.replace(/[?&#%]/g, encodeURIComponent)

const DATES = {
  fr: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/Paris' }),
}

/**
 * « Répondre »: a mailto: link to the visitor, in the language they wrote in (the page's), with a
 * « Re: » subject naming the day of their message and that message quoted below an empty first line.
 */
export function replyMailto(submission: Pick<Submission, 'email' | 'name' | 'message' | 'created_at' | 'locale'>) {
  const english = submission.locale === 'en'
  const sent = new Date(submission.created_at)
  const day = english ? DATES.en.format(sent) : frenchDate(DATES.fr, sent)
  const subject = english ? `Re: Your message of ${day}` : `Re : Votre message du ${day}`
  const quoted = submission.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n')
  const body = english
    ? `Hello ${submission.name},\n\n\n\nOn ${day}, you wrote:\n${quoted}`
    : `Bonjour ${submission.name},\n\n\n\nLe ${day}, vous avez écrit :\n${quoted}`
  return `mailto:${mailtoAddress(submission.email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`
}
