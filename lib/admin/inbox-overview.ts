import type { SupabaseClient } from '@supabase/supabase-js'
import { frenchDate } from '@/supabase/functions/_shared/french-date'

/*
 * The inbox's overview, as the database computes it for administrators (contact_inbox_overview, the
 * migration 20261229100000), and how the inbox words its figures.
 */

/** One week (starting Monday, Paris): messages by language and by package ('' the others, '-' none). */
export type OverviewWeek = { week: string; total: number; fr: number; en: number; packages: Record<string, number> }
export type InboxOverview = {
  weeks: OverviewWeek[]
  /** The period's most chosen packages, by name (at most four). */
  packages: string[]
  /** Last 30 days: answered, answered within 24 h, owed an answer (answered, or 24 h over), median seconds. */
  answers: { answered: number; within_24h: number; owed: number; median_seconds: number | null }
  /** Waiting for an answer for more than 24 hours. */
  overdue: number
}

export async function fetchInboxOverview(client: SupabaseClient): Promise<InboxOverview> {
  const { data, error } = await client.rpc('contact_inbox_overview', { weeks: 12 })
  if (error) throw error
  return data as InboxOverview
}

/** The chart's series: by language, or by package (the period's four most chosen, the others, none). */
export type Series = { key: string; label: string; count: (week: OverviewWeek) => number }

export function languageSeries(): Series[] {
  return [
    { key: 'fr', label: 'Français', count: (week) => week.fr },
    { key: 'en', label: 'Anglais', count: (week) => week.en },
  ]
}

export function packageSeries(overview: Pick<InboxOverview, 'packages'>): Series[] {
  return [
    ...overview.packages.map((name) => ({
      key: name,
      label: name,
      count: (week: OverviewWeek) => week.packages[name] ?? 0,
    })),
    { key: '', label: 'Autres forfaits', count: (week: OverviewWeek) => week.packages[''] ?? 0 },
    { key: '-', label: 'Sans forfait', count: (week: OverviewWeek) => week.packages['-'] ?? 0 },
  ]
}

/** '3 h 20 min', '45 min', '2 j 4 h' (a duration the agency reads at a glance); '–' when none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '–'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return hours % 24 ? `${days} j ${hours % 24} h` : `${days} j`
}

/** '87 %' (French typography: a narrow no-break space before %), '–' when nothing was owed. */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part / whole) * 100)}\u202f%`
}

const WEEK = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' })

/** A week's first day, short: '3 nov.', '1er juin' (the database gives the date alone, read as UTC). */
export const weekLabel = (week: string) => frenchDate(WEEK, new Date(`${week}T00:00:00Z`))
