import { FOLLOW_UP_LABELS } from './follow-up.ts'
import { notificationSummary } from './notification-format.ts'
import type { Submission } from './submission'

/*
 * The messages as a CSV that French Excel opens as it is (double-click): UTF-8 with a BOM (accents),
 * « ; » between columns (French Excel's list separator), CRLF line ends, dates as `27/11/2026 19:04`
 * in Paris time, phone numbers as the visitor wrote them. LibreOffice and Numbers read it too.
 */

const PARIS = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** `27/11/2026 19:04`: the date and time in Paris, as French Excel reads a date. */
export const csvDate = (iso: string) => PARIS.format(new Date(iso)).replace(',', '')

/** Only what a phone number is dialled with: no letter, no quote, nothing a formula could call. */
const DIALLED = /^[+\d(][\d\s().+-]*$/

/**
 * A phone number as written: Excel would read `+33 6…` as a formula and drop the 0 of `0612345678`, so a
 * number made of dialling characters only goes out as the text formula `="…"` (shown as written, and
 * nothing in it can run); anything else goes through csvCell's neutralisation like every other cell.
 */
export function csvPhone(phone: string | null): string {
  if (phone && DIALLED.test(phone)) return `"=""${phone}"""`
  return csvCell(phone)
}

/** The columns: a header and the cell each row shows under it (the notification as the inbox says it). */
const COLUMNS: [string, (row: Submission) => string][] = [
  ['Date', (row) => csvCell(csvDate(row.created_at))],
  ['Nom', (row) => csvCell(row.name)],
  ['Email', (row) => csvCell(row.email)],
  ['Téléphone', (row) => csvPhone(row.phone)],
  ['Forfait', (row) => csvCell(row.package)],
  ['Langue', (row) => csvCell(row.locale === 'en' ? 'anglais' : 'français')],
  ['Message', (row) => csvCell(row.message)],
  ['Lu', (row) => csvCell(row.is_read)],
  ['Suivi', (row) => csvCell(FOLLOW_UP_LABELS[row.follow_up])],
  ['Répondu le', (row) => csvCell(row.answered_at ? csvDate(row.answered_at) : '')],
  ['Notification', (row) => csvCell(notificationSummary(row))],
  ['Identifiant', (row) => csvCell(row.id)],
]

/**
 * One CSV cell. Quotes every value (« ; », quotes, newlines survive), doubles inner quotes, and
 * prefixes cells a spreadsheet would run as a formula (=, +, -, @, tab, CR) with an apostrophe.
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'oui' : 'non') : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return `"${text.replace(/"/g, '""')}"`
}

export function submissionsToCsv(rows: Submission[]): string {
  const lines = [COLUMNS.map(([header]) => csvCell(header)).join(';')]
  for (const row of rows) lines.push(COLUMNS.map(([, cell]) => cell(row)).join(';'))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
