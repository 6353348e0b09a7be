import { describe, expect, it } from 'vitest'
import {
  deletedCountLabel,
  deletionAnnouncement,
  formatSubmissionDate,
  receivedCountLabel,
  unreadCountLabel,
} from '@/lib/admin/inbox-format'
import type { Submission } from '@/lib/admin/submission'
import { csvCell, csvPhone, submissionsToCsv } from '@/lib/admin/submissions-csv'

describe('inbox labels', () => {
  it('uses French plurals (0 and 1 singular)', () => {
    expect(receivedCountLabel(0)).toBe('0 message reçu')
    expect(receivedCountLabel(1)).toBe('1 message reçu')
    expect(receivedCountLabel(2)).toBe('2 messages reçus')
    expect(receivedCountLabel(10000)).toBe('10000 messages reçus')
    expect(unreadCountLabel(1)).toBe('1 non lu')
    expect(unreadCountLabel(3)).toBe('3 non lus')
    expect(deletedCountLabel(1)).toBe('1 message supprimé')
    expect(deletedCountLabel(10)).toBe('10 messages supprimés')
  })

  it('says what a deletion removed and what is left', () => {
    expect(deletionAnnouncement({ name: 'Zoé Dupont' }, 54)).toBe('Message de Zoé Dupont supprimé. 54 messages reçus.')
    expect(deletionAnnouncement({ name: 'Zoé Dupont' }, 0)).toBe('Message de Zoé Dupont supprimé. 0 message reçu.')
    expect(deletionAnnouncement({ email: 'a@b.fr', count: 10 }, 1)).toBe(
      '10 messages de a@b.fr supprimés. 1 message reçu.',
    )
    expect(deletionAnnouncement({ email: 'a@b.fr', count: 1 }, 3)).toBe(
      '1 message de a@b.fr supprimé. 3 messages reçus.',
    )
    expect(deletionAnnouncement({ name: 'Zoé Dupont' }, null)).toBe('Message de Zoé Dupont supprimé.')
  })

  it('formats dates in French long format with the time, Paris time', () => {
    expect(formatSubmissionDate('2026-11-22T17:06:00Z')).toBe('22 novembre 2026 à 18:06')
    expect(formatSubmissionDate('2026-07-01T08:30:00+00:00')).toBe('1er juillet 2026 à 10:30')
  })
})

describe('CSV export', () => {
  const row: Submission = {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Zoé "Zaza" Dupont, SARL',
    email: 'zoe@example.fr',
    phone: null,
    message: 'Ligne 1\nLigne 2, avec virgule — et accents éàç',
    package: 'Growth',
    locale: 'fr',
    created_at: '2026-11-22T17:06:00Z',
    is_read: false,
    notified_at: '2026-11-22T17:06:01Z',
    notification_status: 'sent',
    notification_attempts: 1,
    notification_next_attempt_at: null,
    follow_up: 'new',
    answered_at: null,
    follow_up_changed_at: null,
  }

  it('opens in French Excel: a BOM, « ; » between columns, Paris dates as dd/mm/yyyy hh:mm', () => {
    const [header, line] = submissionsToCsv([row]).split('\r\n')
    expect(header.startsWith('\uFEFF"Date";"Nom";"Email"')).toBe(true)
    // 17:06 UTC on 22 November is 18:06 in Paris (winter time); in July, two hours ahead.
    expect(line.startsWith('"22/11/2026 18:06";')).toBe(true)
    expect(submissionsToCsv([{ ...row, created_at: '2026-07-01T22:30:00Z' }])).toContain('"02/07/2026 00:30";')
  })

  it('keeps a phone number as the visitor wrote it, and neutralises one that could run', () => {
    expect(csvPhone('+33 6 12 34 56 78')).toBe('"=""+33 6 12 34 56 78"""')
    expect(csvPhone('0612345678')).toBe('"=""0612345678"""')
    expect(csvPhone('(01) 23.45-67')).toBe('"=""(01) 23.45-67"""')
    for (const payload of ['=1+1', '+33 6 HYPERLINK', '-2+3"', '@SUM(A1)'])
      expect(csvPhone(payload)).toBe(csvCell(payload))
    expect(csvCell('+33 6 HYPERLINK').startsWith(`"'`)).toBe(true)
    expect(csvPhone(null)).toBe('""')
  })

  it('quotes separators, quotes and newlines and keeps non-ASCII text', () => {
    const csv = submissionsToCsv([row])
    expect(csv).toContain('"Zoé ""Zaza"" Dupont, SARL"')
    expect(csv).toContain('"Ligne 1\nLigne 2, avec virgule — et accents éàç"')
    expect(csv).toContain('"non"')
    expect(csv.split('\r\n')).toHaveLength(3)
  })

  it('says what the agency was told of each message, as the inbox does', () => {
    const [header, sent, failed] = submissionsToCsv([
      row,
      {
        ...row,
        notified_at: null,
        notification_status: 'delivery_failed',
        notification_attempts: 4,
        notification_next_attempt_at: null,
        locale: 'en',
        follow_up: 'answered',
        answered_at: '2026-11-23T08:15:00Z',
      },
    ]).split('\r\n')
    expect(header).toBe(
      '\uFEFF"Date";"Nom";"Email";"Téléphone";"Forfait";"Langue";"Message";"Lu";"Suivi";"Répondu le";"Notification";"Identifiant"',
    )
    expect(sent).toContain(';"non";"Nouveau";"";')
    expect(failed).toContain(';"non";"Répondu";"23/11/2026 09:15";')
    expect(sent).toContain(';"Growth";"français";')
    expect(failed).toContain(';"Growth";"anglais";')
    expect(sent).toContain(';"Notification envoyée le 22 novembre 2026 à 18:06";')
    expect(failed).toContain(';"Notification non envoyée (échec après 4 tentatives)";')
  })

  it('neutralises spreadsheet formulas', () => {
    for (const payload of ['=HYPERLINK("http://x")', '+33 6', '-2+3', '@SUM(A1)', '\tcmd']) {
      expect(csvCell(payload)).toBe(`"'${payload.replace(/"/g, '""')}"`)
    }
    expect(csvCell('Bonjour = merci')).toBe('"Bonjour = merci"')
    expect(csvCell(null)).toBe('""')
  })
})
