import { getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import type { Locale } from '@/lib/i18n/routing'
import { toInsertRow, type ContactFormValues } from './contact-schema.ts'

export type SubmitOutcome = 'success' | 'rate_limited' | 'error'

/** Postgres raises this code when a client address sends too many messages (see the migrations). */
const RATE_LIMIT_CODE = 'PT429'

/**
 * Stores a message (spec §7.1), with the language of the page it was sent from. The agency's notification (§7.2) is the database's to ask for, once
 * the message is stored (the insert trigger of supabase/migrations/20261220100000, through pg_net), so
 * it never depends on this tab staying open.
 */
export async function submitContact(values: ContactFormValues, locale: Locale): Promise<SubmitOutcome> {
  const { error } = await getSupabaseBrowserClient().from('contact_submissions').insert(toInsertRow(values, locale))
  if (!error) return 'success'
  console.error('[contact] insert failed', error.code, error.message)
  return error.code === RATE_LIMIT_CODE ? 'rate_limited' : 'error'
}
