import { beforeAll, describe, expect, it } from 'vitest'

// West of UTC, where a day read as midnight UTC is still the day before: the process's zone must not
// count. Set before the module builds its formats, which is when Intl reads it.
let calendarDay: typeof import('@/lib/i18n/calendar-day').calendarDay
beforeAll(async () => {
  process.env.TZ = 'America/Los_Angeles'
  ;({ calendarDay } = await import('@/lib/i18n/calendar-day'))
})

describe('calendarDay (the legal pages’ « Dernière mise à jour »)', () => {
  it('writes the day chosen, whatever the process’s time zone (west of UTC it was the day before)', () => {
    expect(calendarDay('2025-01-15', 'fr')).toBe('15 janvier 2025')
    expect(calendarDay('2025-01-15', 'en')).toBe('January 15, 2025')
  })

  it('writes « 1er » for the first of a month in French only', () => {
    expect(calendarDay('2025-07-01', 'fr')).toBe('1er juillet 2025')
    expect(calendarDay('2025-07-01', 'en')).toBe('July 1, 2025')
  })
})
