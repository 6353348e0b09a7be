import { getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import { toInsertRow, type ContactFormValues } from './contact-schema.ts'

export type SubmitOutcome = 'success' | 'rate_limited' | 'error'

/** Postgres raises this code when a client address sends too many messages (see the migrations). */
const RATE_LIMIT_CODE = 'PT429'

/**
 * Stores a message (spec §7.1) and, once stored, asks the send-contact-email function to notify the
 * agency (§7.2). The notification's failure is only logged: the message is safe in the database.
 */
export async function submitContact(values: ContactFormValues, fillTimeMs: number): Promise<SubmitOutcome> {
  const supabase = getSupabaseBrowserClient()
  const row = toInsertRow(values)
  const { error } = await supabase.from('contact_submissions').insert(row)
  if (error) {
    console.error('[contact] insert failed', error.code, error.message)
    return error.code === RATE_LIMIT_CODE ? 'rate_limited' : 'error'
  }
  void supabase.functions
    .invoke('send-contact-email', {
      body: { ...row, phone: row.phone ?? '', website: values.website ?? '', _meta: { fillTime: fillTimeMs } },
    })
    .then(({ error: notifyError }) => {
      if (notifyError) console.error('[contact] notification failed', notifyError.message)
    })
    .catch((notifyError: unknown) => console.error('[contact] notification failed', notifyError))
  return 'success'
}
