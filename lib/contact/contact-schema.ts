// The contact schema lives beside the send-contact-email function so `supabase functions deploy`
// bundles it (the CLI cannot always bundle files outside supabase/functions); the app imports it here.
export * from '../../supabase/functions/_shared/contact-schema.ts'
