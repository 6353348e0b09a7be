-- send-contact-email notifies the agency of stored messages only (it used to send whatever text and
-- reply-to address a request carried, at any rate). The form inserts its message with an id it drew
-- itself (a random UUID: visitors may only insert, never read, so they cannot read an id back) and
-- hands that id to the function, which reads the row with the service role and sends that row's
-- name, email, phone, message and package. notified_at marks a row once it has been sent, so each
-- message is notified at most once, and notifications per address stay within the insert limit.

alter table public.contact_submissions add column notified_at timestamptz;

comment on column public.contact_submissions.notified_at is
  'When send-contact-email notified the agency of this message; null until then.';

-- Messages stored before this: the previous flow notified them (or gave up). None is to be sent now.
update public.contact_submissions set notified_at = created_at where notified_at is null;

-- The id a visitor chooses only names its own message; it grants no read access (no SELECT).
grant insert (id) on public.contact_submissions to anon, authenticated;
