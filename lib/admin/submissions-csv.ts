import { notificationSummary } from './notification-format'
import type { Submission } from './submission'

/** The columns: a header and what each row shows under it (the notification as the inbox says it). */
const COLUMNS: [string, (row: Submission) => unknown][] = [
  ['Date', (row) => row.created_at],
  ['Nom', (row) => row.name],
  ['Email', (row) => row.email],
  ['Téléphone', (row) => row.phone],
  ['Forfait', (row) => row.package],
  ['Message', (row) => row.message],
  ['Lu', (row) => row.is_read],
  ['Notification', notificationSummary],
  ['Identifiant', (row) => row.id],
]

/**
 * One CSV cell. Quotes every value (commas, quotes, newlines survive), doubles inner quotes, and
 * prefixes cells a spreadsheet would run as a formula (=, +, -, @, tab, CR) with an apostrophe.
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'oui' : 'non') : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return `"${text.replace(/"/g, '""')}"`
}

/** The messages as CSV: UTF-8 with a BOM (so spreadsheets read accents right) and CRLF line ends. */
export function submissionsToCsv(rows: Submission[]): string {
  const lines = [COLUMNS.map(([header]) => csvCell(header)).join(',')]
  for (const row of rows) lines.push(COLUMNS.map(([, cell]) => csvCell(cell(row))).join(','))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
