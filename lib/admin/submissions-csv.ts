/** A contact message as the inbox reads it (columns of contact_submissions). */
export type Submission = {
  id: string
  name: string
  email: string
  phone: string | null
  message: string
  package: string | null
  created_at: string
  is_read: boolean
  /** What the agency was told (migration 20261210100100): sent at notified_at, else why not. */
  notified_at: string | null
  notification_status: 'never_asked' | 'sending' | 'sent' | 'delivery_failed'
  notification_attempts: number
  notification_next_attempt_at: string | null
}

const COLUMNS: [keyof Submission, string][] = [
  ['created_at', 'Date'],
  ['name', 'Nom'],
  ['email', 'Email'],
  ['phone', 'Téléphone'],
  ['package', 'Forfait'],
  ['message', 'Message'],
  ['is_read', 'Lu'],
  ['id', 'Identifiant'],
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
  const lines = [COLUMNS.map(([, header]) => csvCell(header)).join(',')]
  for (const row of rows) lines.push(COLUMNS.map(([key]) => csvCell(row[key])).join(','))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
