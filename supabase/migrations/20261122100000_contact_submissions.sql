-- Contact messages (spec §7.1). The database is the authority: it trims, then checks the same rules
-- as the shared zod schema (supabase/functions/_shared/contact-schema.ts): lengths in characters
-- (Unicode code points, as zod and char_length count them), and whitespace exactly as JavaScript's
-- String.prototype.trim() sees it, so browser, function and database agree on every input.

create schema if not exists private;
revoke all on schema private from public;

-- JavaScript's whitespace set (WhiteSpace + LineTerminator): \s covers the ASCII ones.
create or replace function private.js_trim(value text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select regexp_replace(
    value,
    '^[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '',
    'g'
  )
$$;

create table public.contact_submissions (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  phone text,
  message text not null,
  package text,
  is_read boolean not null default false,
  created_at timestamptz not null default now(),
  constraint contact_submissions_name_check check (char_length(name) between 2 and 100),
  constraint contact_submissions_email_check check (
    char_length(email) <= 255
    and email ~ '^[^@\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+@[^@\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+\.[^@\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$'
  ),
  constraint contact_submissions_phone_check check (phone is null or char_length(phone) between 1 and 20),
  constraint contact_submissions_message_check check (char_length(message) between 10 and 1000),
  constraint contact_submissions_package_check check (package is null or char_length(package) between 1 and 100)
);

comment on table public.contact_submissions is 'Messages sent from the contact page and the package dialog.';
comment on column public.contact_submissions.package is 'Package chosen in the dialog, null from the contact page.';

create index contact_submissions_created_at_idx on public.contact_submissions (created_at desc);
create index contact_submissions_email_idx on public.contact_submissions (lower(email));

-- Trim every text and store an empty phone or package as null, before the CHECKs run.
create or replace function private.normalize_contact_submission() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.name := private.js_trim(new.name);
  new.email := private.js_trim(new.email);
  new.phone := nullif(private.js_trim(new.phone), '');
  new.message := private.js_trim(new.message);
  new.package := nullif(private.js_trim(new.package), '');
  return new;
end
$$;

create trigger contact_submissions_normalize
before insert or update on public.contact_submissions
for each row execute function private.normalize_contact_submission();

-- Access: visitors may only add messages, and only the message columns (not id, is_read or
-- created_at). Reading, marking read and deleting are for admins (policies in the roles migration).
alter table public.contact_submissions enable row level security;
revoke all on public.contact_submissions from anon, authenticated;
grant insert (name, email, phone, message, package) on public.contact_submissions to anon, authenticated;
grant all on public.contact_submissions to service_role;

create policy "Visitors can send a message"
on public.contact_submissions for insert to anon, authenticated
with check (not is_read);

-- The trigger functions run as the table owner; API roles never call them directly.
grant usage on schema private to anon, authenticated, service_role;
revoke all on all functions in schema private from public;
grant execute on function private.js_trim(text) to anon, authenticated, service_role;
