-- A message's key, drawn by the page that sends it (lib/contact/submit-contact.ts). The browser waits
-- 10 s for Supabase; an answer that comes later may follow a message that was stored all the same, and
-- the visitor, told « Une erreur s'est produite », sends it again: with the same key, the second insert
-- is refused by this constraint (23505, which the page takes for « already stored »), so the agency gets
-- the message once. Not ON CONFLICT DO NOTHING: naming a conflict column makes Postgres check the new
-- row against the select policies, and visitors have none. Rows from before, and rows written without
-- the form, have no key.
alter table public.contact_submissions add column submission_key uuid;
alter table public.contact_submissions
  add constraint contact_submissions_submission_key_key unique (submission_key);

grant insert (submission_key) on public.contact_submissions to anon, authenticated;
