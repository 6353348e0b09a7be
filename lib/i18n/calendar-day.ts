import { frenchDate } from '@/supabase/functions/_shared/french-date'
import type { Locale } from './routing'

const LONG = {
  fr: new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }),
}

/**
 * A day with no time (a Sanity `date`, « 2025-01-15 »), written out in the page's language: « 15 janvier
 * 2025 », « 1er juillet 2025 », « January 15, 2025 ». Read and written in UTC, so that the day stays the
 * one the editor chose whatever the server's time zone (in the server's, a server west of UTC wrote the
 * day before).
 */
export function calendarDay(day: string, locale: Locale): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`)
  return locale === 'fr' ? frenchDate(LONG.fr, date) : LONG.en.format(date)
}
