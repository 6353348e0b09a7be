import { getSupabaseBrowserClient } from '@/lib/supabase/browser-client'
import { toInsertRow, type ContactFormValues } from './contact-schema.ts'
import { newSubmissionId } from './submission-id.ts'

export type SubmitOutcome = 'success' | 'rate_limited' | 'error'

/** Postgres raises this code when a client address sends too many messages (see the migrations). */
const RATE_LIMIT_CODE = 'PT429'

/**
 * Stores a message (spec §7.1) under an id drawn here, then asks the send-contact-email function to
 * notify the agency of that stored message (§7.2): the function reads the row itself, so the request
 * carries only the id. The notification's failure is only logged: the message is safe in the database.
 */
export async function submitContact(values: ContactFormValues): Promise<SubmitOutcome> {
  const supabase = getSupabaseBrowserClient()
  const id = newSubmissionId()
  const { error } = await supabase.from('contact_submissions').insert({ id, ...toInsertRow(values) })
  if (error) {
    console.error('[contact] insert failed', error.code, error.message)
    return error.code === RATE_LIMIT_CODE ? 'rate_limited' : 'error'
  }
  void supabase.functions
    .invoke('send-contact-email', { body: { id } })
    .then(({ error: notifyError }) => {
      if (notifyError) console.error('[contact] notification failed', notifyError.message)
    })
    .catch((notifyError: unknown) => console.error('[contact] notification failed', notifyError))
  return 'success'
}
