import type { SupabaseClient } from '@supabase/supabase-js'

/**
 * What became of a « Renvoyer la notification »: the answer of send-contact-email's resend request
 * (supabase/functions/send-contact-email/handler.ts), whose rules the database decides.
 */
export type ResendOutcome =
  | 'sent'
  | 'too_soon' // asked less than a minute ago for this message (429)
  | 'gone' // the message no longer exists, e.g. purged meanwhile (404)
  | 'already_sent' // sent meanwhile (409)
  | 'in_progress' // being sent by another call (409)
  | 'delivery_failed' // the mail server refused it or did not answer (502); recorded, retried on schedule
  | 'forbidden' // not an administrator (403)
  | 'error'

/** Asks send-contact-email, with the signed-in administrator's session, to send a message's notification again. */
export async function resendNotification(client: SupabaseClient, id: string): Promise<ResendOutcome> {
  let error: unknown
  try {
    ;({ error } = await client.functions.invoke('send-contact-email', { body: { id, resend: true } }))
  } catch (thrown) {
    error = thrown
  }
  if (!error) return 'sent'
  // FunctionsHttpError carries the function's answer; a network failure carries none.
  const response: unknown = (error as { context?: unknown }).context
  if (!(response instanceof Response)) return 'error'
  const body = (await response.json().catch(() => ({}))) as { error?: string }
  if (response.status === 429) return 'too_soon'
  if (response.status === 404) return 'gone'
  if (response.status === 409) return body.error === 'notification_in_progress' ? 'in_progress' : 'already_sent'
  if (response.status === 502 && body.error === 'delivery_failed') return 'delivery_failed'
  if (response.status === 403) return 'forbidden'
  return 'error'
}
