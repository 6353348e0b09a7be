import { getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import type { Locale } from '@/lib/i18n/routing'
import { toInsertRow, type ContactFormValues, type InsertRow } from './contact-schema.ts'

export type SubmitOutcome = 'success' | 'rate_limited' | 'error'

/** Postgres raises this code when a client address sends too many messages (see the migrations). */
const RATE_LIMIT_CODE = 'PT429'
/** Postgres's code for a value a unique constraint already holds. */
const UNIQUE_VIOLATION = '23505'

/** The message last sent from this page without an answer that said it was stored, and its id. */
let lastSent: { content: string; id: string } | undefined

/**
 * The id of a message, drawn here (visitors may insert it, never read it): the same as last time when
 * the visitor sends the very same message again after an error, the first having perhaps been stored
 * with its answer late or lost (the browser gives Supabase 10 s); a new one as soon as a word changed.
 * The second copy is then refused by the primary key, and the agency gets the message once. Random from
 * the browser's generator, which, unlike crypto.randomUUID, a page served over plain http also has.
 */
function messageId(row: InsertRow): string {
  const content = JSON.stringify(row)
  if (lastSent?.content !== content) {
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    bytes[6] = (bytes[6] & 0x0f) | 0x40 // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80 // RFC 9562 variant
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
    lastSent = { content, id: hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') }
  }
  return lastSent.id
}

/**
 * Stores a message (spec §7.1), with the language of the page it was sent from. The agency's notification (§7.2) is the database's to ask for, once
 * the message is stored (the insert trigger of supabase/migrations/20261220100000, through pg_net), so
 * it never depends on this tab staying open.
 */
export async function submitContact(values: ContactFormValues, locale: Locale): Promise<SubmitOutcome> {
  const row = toInsertRow(values, locale)
  const { error } = await getSupabaseBrowserClient()
    .from('contact_submissions')
    .insert({ ...row, id: messageId(row) })
  // Refused as a second copy of its id: the first send was stored, though its answer never came.
  if (!error || (error.code === UNIQUE_VIOLATION && error.message.includes('contact_submissions_pkey'))) {
    lastSent = undefined
    return 'success'
  }
  console.error('[contact] insert failed', error.code, error.message)
  return error.code === RATE_LIMIT_CODE ? 'rate_limited' : 'error'
}
