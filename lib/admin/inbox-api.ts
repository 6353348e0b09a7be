import type { SupabaseClient } from '@supabase/supabase-js'
import { foldForSearch } from './search-folding'
import type { Submission } from './submission'

export const PAGE_SIZE = 50
/** PostgREST's max_rows on Supabase: exports read in chunks of this size. */
const EXPORT_CHUNK = 1000

export type InboxPage = { rows: Submission[]; total: number; unread: number }

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

/** Narrows the list beyond the search: « Non notifiées » keeps the messages the agency was never told of. */
export type InboxFilter = { unnotifiedOnly?: boolean }

function matching(
  client: SupabaseClient,
  search: string,
  options: { count?: 'exact'; head?: boolean } = {},
  { unnotifiedOnly = false }: InboxFilter = {},
) {
  const query = client.from('contact_submissions').select(options.head ? 'id' : '*', options)
  const searched = search.trim() ? query.or(searchFilter(search.trim())) : query
  return unnotifiedOnly ? searched.is('notified_at', null) : searched
}

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
  const [list, unread] = await Promise.all([
    matching(client, search, { count: 'exact' }, filter)
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, from + PAGE_SIZE - 1),
    client.from('contact_submissions').select('id', { count: 'exact', head: true }).eq('is_read', false),
  ])
  if (unread.error) throw unread.error
  if (list.error?.code === RANGE_NOT_SATISFIABLE) {
    const counted = await matching(client, search, { count: 'exact', head: true }, filter)
    if (counted.error) throw counted.error
    return { rows: [], total: counted.count ?? 0, unread: unread.count ?? 0 }
  }
  if (list.error) throw list.error
  return { rows: (list.data ?? []) as unknown as Submission[], total: list.count ?? 0, unread: unread.count ?? 0 }
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
      .order('created_at', { ascending: false })
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
