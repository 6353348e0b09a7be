import type { SupabaseClient } from '@supabase/supabase-js'
import { FOLLOW_UPS, PROMISED_HOURS } from './follow-up.ts'
import { foldForSearch } from './search-folding.ts'
import type { FollowUp, Submission } from './submission'

export const PAGE_SIZE = 50
/** PostgREST's max_rows on Supabase: exports read in chunks of this size. */
const EXPORT_CHUNK = 1000

/** A page of the list, its total, and two counts over every message: unread, and waiting past the promise. */
export type InboxPage = { rows: Submission[]; total: number; unread: number; overdue: number }

/**
 * A PostgREST `or` filter on search_text, the name, email and message without accents (the migration
 * contact_search), with the term folded the same way: « FENETRE » finds « fenêtre ». The term is taken
 * literally: % and _ are escaped for ILIKE, then the value is double-quoted so , ( ) " do not break
 * the filter syntax.
 */
export function searchFilter(term: string): string {
  const literal = foldForSearch(term).replace(/[\\%_]/g, '\\$&')
  const quoted = `"*${literal.replace(/["\\]/g, '\\$&')}*"`
  return `search_text.ilike.${quoted}`
}

/**
 * Which messages the list shows: 'open' (the default: all but the archived), 'waiting' (« À répondre »:
 * neither answered nor archived, oldest first), one follow-up state, or 'all'.
 */
export type InboxView = 'open' | 'waiting' | FollowUp | 'all'
export const INBOX_VIEWS: InboxView[] = ['open', 'waiting', ...FOLLOW_UPS, 'all']

/** Narrows the list beyond the search: the view, and « Non notifiées » (the agency was never told). */
export type InboxFilter = { unnotifiedOnly?: boolean; view?: InboxView }

function matching(
  client: SupabaseClient,
  search: string,
  options: { count?: 'exact'; head?: boolean } = {},
  { unnotifiedOnly = false, view = 'open' }: InboxFilter = {},
) {
  let query = client.from('contact_submissions').select(options.head ? 'id' : '*', options)
  if (search.trim()) query = query.or(searchFilter(search.trim()))
  if (unnotifiedOnly) query = query.is('notified_at', null)
  if (view === 'open') return query.neq('follow_up', 'archived')
  if (view === 'waiting') return query.in('follow_up', ['new', 'in_progress'])
  return view === 'all' ? query : query.eq('follow_up', view)
}

/** Newest first, but « À répondre » oldest first: the longest wait comes first. */
const newestFirst = (view: InboxView = 'open') => view !== 'waiting'

/** PostgREST answers 416 (PGRST103) when a page starts past the last row, e.g. after deletions. */
const RANGE_NOT_SATISFIABLE = 'PGRST103'

/** Spec §7.4: is the signed-in user an admin? */
export async function isAdmin(client: SupabaseClient, userId: string): Promise<boolean> {
  const { data, error } = await client
    .from('user_roles')
    .select('role')
    .eq('user_id', userId)
    .eq('role', 'admin')
    .maybeSingle()
  if (error) throw error
  return data?.role === 'admin'
}

/**
 * One page of messages, newest first, with the total for the search (and filter) and the unread count
 * overall.
 * A page past the end (messages deleted meanwhile) comes back empty with the current total, so the
 * inbox can step back to the last page instead of failing.
 */
export async function fetchInboxPage(
  client: SupabaseClient,
  page: number,
  search: string,
  filter: InboxFilter = {},
): Promise<InboxPage> {
  const from = page * PAGE_SIZE
  const promiseBroken = new Date(Date.now() - PROMISED_HOURS * 3_600_000).toISOString()
  const [list, unread, overdue] = await Promise.all([
    matching(client, search, { count: 'exact' }, filter)
      .order('created_at', { ascending: !newestFirst(filter.view) })
      .order('id')
      .range(from, from + PAGE_SIZE - 1),
    client.from('contact_submissions').select('id', { count: 'exact', head: true }).eq('is_read', false),
    client
      .from('contact_submissions')
      .select('id', { count: 'exact', head: true })
      .in('follow_up', ['new', 'in_progress'])
      .lt('created_at', promiseBroken),
  ])
  if (unread.error) throw unread.error
  if (overdue.error) throw overdue.error
  const counts = { unread: unread.count ?? 0, overdue: overdue.count ?? 0 }
  if (list.error?.code === RANGE_NOT_SATISFIABLE) {
    const counted = await matching(client, search, { count: 'exact', head: true }, filter)
    if (counted.error) throw counted.error
    return { rows: [], total: counted.count ?? 0, ...counts }
  }
  if (list.error) throw list.error
  return { rows: (list.data ?? []) as unknown as Submission[], total: list.count ?? 0, ...counts }
}

/** Every message matching the search and filter (for the CSV export), read in chunks without counting. */
export async function fetchAllMatching(
  client: SupabaseClient,
  search: string,
  filter: InboxFilter = {},
): Promise<Submission[]> {
  const rows: Submission[] = []
  for (let from = 0; from < 1_000_000; from += EXPORT_CHUNK) {
    const { data, error } = await matching(client, search, {}, filter)
      .order('created_at', { ascending: !newestFirst(filter.view) })
      .order('id')
      .range(from, from + EXPORT_CHUNK - 1)
    if (error) throw error
    rows.push(...((data ?? []) as unknown as Submission[]))
    if (!data || data.length < EXPORT_CHUNK) break
  }
  return rows
}

export async function setRead(client: SupabaseClient, id: string, isRead: boolean): Promise<void> {
  const { error } = await client.from('contact_submissions').update({ is_read: isRead }).eq('id', id)
  if (error) throw error
}

/** Moves a message to a follow-up state (the database records when, by whom, and the answer's time). */
export async function setFollowUp(client: SupabaseClient, id: string, followUp: FollowUp): Promise<void> {
  const { error } = await client.from('contact_submissions').update({ follow_up: followUp }).eq('id', id)
  if (error) throw error
}

export async function deleteSubmission(client: SupabaseClient, id: string): Promise<void> {
  const { error } = await client.from('contact_submissions').delete().eq('id', id)
  if (error) throw error
}

/** Erases every message of one address (the privacy policy's right to erasure). Returns how many. */
export async function deleteSubmissionsByEmail(client: SupabaseClient, email: string): Promise<number> {
  const { data, error } = await client.from('contact_submissions').delete().eq('email', email).select('id')
  if (error) throw error
  return data?.length ?? 0
}
