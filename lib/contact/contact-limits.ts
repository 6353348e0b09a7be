// See contact-schema.ts: the limits are shared with the send-contact-email function.
export * from '../../supabase/functions/_shared/contact-limits.ts'
