import { describe, expect, it } from 'vitest'
import { isOverdue, overdueCountLabel, replyMailto } from '@/lib/admin/follow-up'
import { viewCountLabel } from '@/lib/admin/inbox-format'
import { formatDuration, formatShare, packageSeries, weekLabel } from '@/lib/admin/inbox-overview'

const message = {
  email: 'zoé+devis@example.fr',
  name: 'Zoé Dupont',
  message: 'Bonjour,\nun devis & un délai ?',
  created_at: '2026-11-22T17:06:00Z',
  locale: 'fr' as const,
}

/** The parts of a mailto: URL, decoded. */
function parts(url: string) {
  const [address, query] = url.slice('mailto:'.length).split('?')
  const params = new URLSearchParams(query.replace(/\+/g, '%2B'))
  return { address: decodeURIComponent(address), subject: params.get('subject'), body: params.get('body') }
}

describe('« Répondre »', () => {
  it('writes to the visitor in French, with a « Re : » subject and their message quoted', () => {
    const { address, subject, body } = parts(replyMailto(message))
    expect(address).toBe('zoé+devis@example.fr')
    expect(subject).toBe('Re : Votre message du 22 novembre 2026')
    expect(body).toBe(
      'Bonjour Zoé Dupont,\n\n\n\nLe 22 novembre 2026, vous avez écrit :\n> Bonjour,\n> un devis & un délai ?',
    )
  })

  it('in English to a visitor who wrote from the English site', () => {
    const { subject, body } = parts(replyMailto({ ...message, locale: 'en' }))
    expect(subject).toBe('Re: Your message of 22 November 2026')
    expect(body?.startsWith('Hello Zoé Dupont,\n\n\n\nOn 22 November 2026, you wrote:\n> Bonjour,')).toBe(true)
  })

  it('names the first of a month « 1er » in French, « 1 » in English (Paris time: 23:30 UTC is the next day)', () => {
    const first = { ...message, created_at: '2026-11-30T23:30:00Z' }
    expect(parts(replyMailto(first)).subject).toBe('Re : Votre message du 1er décembre 2026')
    expect(parts(replyMailto({ ...first, locale: 'en' })).subject).toBe('Re: Your message of 1 December 2026')
  })

  it('keeps an address with ?, & or # the address, not the start of the query', () => {
    expect(parts(replyMailto({ ...message, email: 'a?b&c#d@example.fr' })).address).toBe('a?b&c#d@example.fr')
  })
})

describe('the promise', () => {
  const at = Date.parse('2026-11-23T17:06:00Z')
  it('flags a message neither answered nor archived once 24 hours have passed, not a moment before', () => {
    expect(isOverdue({ follow_up: 'new', created_at: message.created_at }, at)).toBe(false)
    expect(isOverdue({ follow_up: 'new', created_at: message.created_at }, at + 1)).toBe(true)
    expect(isOverdue({ follow_up: 'in_progress', created_at: message.created_at }, at + 1)).toBe(true)
    expect(isOverdue({ follow_up: 'answered', created_at: message.created_at }, at + 1)).toBe(false)
    expect(isOverdue({ follow_up: 'archived', created_at: message.created_at }, at + 1)).toBe(false)
  })

  it('counts in French', () => {
    expect(overdueCountLabel(1)).toBe('1 message sans réponse depuis plus de 24 h')
    expect(overdueCountLabel(3)).toBe('3 messages sans réponse depuis plus de 24 h')
    expect(viewCountLabel('open', 2)).toBe('2 messages reçus')
    expect(viewCountLabel('waiting', 1)).toBe('1 message à répondre')
    expect(viewCountLabel('new', 2)).toBe('2 nouveaux messages')
    expect(viewCountLabel('answered', 2)).toBe('2 messages répondus')
    expect(viewCountLabel('archived', 0)).toBe('0 message archivé')
  })
})

describe('the overview’s words', () => {
  it('says durations and shares at a glance', () => {
    expect(formatDuration(null)).toBe('–')
    expect(formatDuration(45 * 60)).toBe('45 min')
    expect(formatDuration(3 * 3600 + 20 * 60)).toBe('3 h 20 min')
    expect(formatDuration(5 * 3600)).toBe('5 h')
    expect(formatDuration(52 * 3600)).toBe('2 j 4 h')
    expect(formatShare(26, 30)).toBe('87\u202f%')
    expect(formatShare(0, 0)).toBe('–')
    expect(weekLabel('2026-11-02')).toBe('2 nov.')
    expect(weekLabel('2026-06-01')).toBe('1er juin')
  })

  it('stacks by package: the most chosen by name, then the others, then none', () => {
    const series = packageSeries({ packages: ['Advanced', 'Starter'] })
    const week = { week: '2026-11-02', total: 6, fr: 5, en: 1, packages: { Advanced: 3, '': 1, '-': 2 } }
    expect(series.map((item) => [item.label, item.count(week)])).toEqual([
      ['Advanced', 3],
      ['Starter', 0],
      ['Autres forfaits', 1],
      ['Sans forfait', 2],
    ])
  })
})
