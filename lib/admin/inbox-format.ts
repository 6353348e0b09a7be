import { frenchDate } from '@/supabase/functions/_shared/french-date'
import type { InboxView } from './inbox-api'

/** 'n message(s) reçu(s)' with French plural rules: 0 and 1 are singular. */
export function receivedCountLabel(count: number): string {
  return count <= 1 ? `${count} message reçu` : `${count} messages reçus`
}

/** 'n non lu(s)' with the same rules. */
export function unreadCountLabel(count: number): string {
  return count <= 1 ? `${count} non lu` : `${count} non lus`
}

/** The toast after « Supprimer tous ses messages »: 'n message(s) supprimé(s)'. */
export function deletedCountLabel(count: number): string {
  return count <= 1 ? `${count} message supprimé` : `${count} messages supprimés`
}

/** One message (by its sender's name), or all the messages of an address. */
export type DeletedMessages = { name: string } | { email: string; count: number }

/**
 * What the inbox's live region says once a deletion is done (the spec is silent): what went, and what
 * is left, e.g. 'Message de Zoé Dupont supprimé. 54 messages reçus.' or
 * '10 messages de a@b.fr supprimés. 0 message reçu.'. The count also makes two deletions of the same
 * sender two different texts, so the second is announced too.
 */
export function deletionAnnouncement(deleted: DeletedMessages, remaining: number | null): string {
  const what =
    'name' in deleted
      ? `Message de ${deleted.name} supprimé`
      : deleted.count <= 1
        ? `${deleted.count} message de ${deleted.email} supprimé`
        : `${deleted.count} messages de ${deleted.email} supprimés`
  // null: the list could not be reloaded, so what is left is not known.
  return remaining === null ? `${what}.` : `${what}. ${receivedCountLabel(remaining)}.`
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' })

/** French long date with the time, in Paris time: "22 novembre 2026 à 18:06", "1er juillet 2026 à 10:30". */
export function formatSubmissionDate(iso: string): string {
  return frenchDate(dateFormat, new Date(iso))
}

/** What the list shows under the title, by view (InboxView): 'n message(s) reçu(s)' for the default. */
export function viewCountLabel(view: InboxView, count: number): string {
  const plural = count > 1
  const messages = plural ? 'messages' : 'message'
  switch (view) {
    case 'waiting':
      return `${count} ${messages} à répondre`
    case 'new':
      return plural ? `${count} nouveaux messages` : `${count} nouveau message`
    case 'in_progress':
      return `${count} ${messages} en cours`
    case 'answered':
      return `${count} ${messages} ${plural ? 'répondus' : 'répondu'}`
    case 'archived':
      return `${count} ${messages} ${plural ? 'archivés' : 'archivé'}`
    default:
      return receivedCountLabel(count)
  }
}

/** The options of the list's « Afficher » menu. */
export const VIEW_LABELS: Record<InboxView, string> = {
  open: 'Tous sauf archivés',
  waiting: 'À répondre (les plus anciens d’abord)',
  new: 'Nouveaux',
  in_progress: 'En cours',
  answered: 'Répondus',
  archived: 'Archivés',
  all: 'Tous, archivés compris',
}
