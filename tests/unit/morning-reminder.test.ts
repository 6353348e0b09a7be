import { describe, expect, it } from 'vitest'
import { composeReminder } from '@/supabase/functions/send-contact-email/morning-reminder'

describe('the morning reminder’s email', () => {
  const now = new Date('2026-11-30T07:00:00Z')
  const waiting = (name: string, created_at: string, extra: Record<string, string | null> = {}) => ({
    id: name,
    name,
    email: `${name.toLowerCase()}@example.fr`,
    package: null,
    locale: 'fr',
    created_at,
    ...extra,
  })

  it('says how many wait and lists each, oldest first, with how long it has waited', () => {
    const email = composeReminder(
      {
        day: '2026-11-30',
        total: 3,
        messages: [
          waiting('Zoé', '2026-11-28T09:00:00Z', { package: 'Advanced', locale: 'en' }),
          waiting('Léa\u200b', '2026-11-29T06:00:00Z'),
        ],
      },
      now,
      { CONTACT_NOTIFICATION_TO: 'agence@example.fr' },
    )
    expect(email.to).toBe('agence@example.fr')
    expect(email.subject).toBe('Rappel : 3 messages attendent une réponse depuis plus de 24 h')
    const lines = email.text.split('\n')
    expect(lines).toContain(
      '- Zoé <zoé@example.fr>, reçu le 28 novembre 2026 à 10:00 (il y a 46 h), forfait Advanced, écrit en anglais',
    )
    // An invisible character in a name shows as a mark, as in the notification.
    expect(lines).toContain('- Léa[U+200B] <léa[U+200B]@example.fr>, reçu le 29 novembre 2026 à 07:00 (il y a 25 h)')
    expect(lines).toContain('… et un autre.')
  })

  it('in the singular for one message', () => {
    const email = composeReminder(
      { day: '2026-11-30', total: 1, messages: [waiting('Zoé', '2026-11-29T06:00:00Z')] },
      now,
      {},
    )
    expect(email.subject).toBe('Rappel : 1 message attend une réponse depuis plus de 24 h')
    expect(email.text).not.toContain('… et')
  })

  it('writes « 1er » for a message received on the first of a month, in Paris time', () => {
    const email = composeReminder(
      { day: '2026-12-02', total: 1, messages: [waiting('Zoé', '2026-11-30T23:30:00Z')] },
      new Date('2026-12-02T07:00:00Z'),
      {},
    )
    expect(email.text).toContain('reçu le 1er décembre 2026 à 00:30 (il y a 31 h)')
  })
})
