/*
 * The inbox's « Mot de passe oublié » (docs/supabase.md): the sign-in asks Supabase Auth for a recovery
 * email whose link opens RESET_PATH with `?token_hash=…&type=recovery` (supabase/templates/recovery.html);
 * that page exchanges the token for a session only when the new password is submitted, so a mail
 * scanner that opens the link does not spend it.
 */
export const INBOX_PATH = '/admin-panel-2024'
export const RESET_PATH = `${INBOX_PATH}/nouveau-mot-de-passe`

/** What the sign-in says after any request it could make, whether or not the address has an account. */
export const RECOVERY_SENT =
  'Si un compte administrateur correspond à cette adresse, un email vient de lui être envoyé. Son lien sert une fois et expire dans une heure.'
