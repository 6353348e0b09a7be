/** 'n message(s) reçu(s)' with French plural rules: 0 and 1 are singular. */
export function receivedCountLabel(count: number): string {
  return count <= 1 ? `${count} message reçu` : `${count} messages reçus`
}

/** 'n non lu(s)' with the same rules. */
export function unreadCountLabel(count: number): string {
  return count <= 1 ? `${count} non lu` : `${count} non lus`
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' })

/** French long date with the time, in Paris time: "22 novembre 2026 à 18:06". */
export function formatSubmissionDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}
