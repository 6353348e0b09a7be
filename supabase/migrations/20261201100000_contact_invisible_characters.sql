-- Invisible characters in a name or an email are refused, as the shared contact schema refuses them
-- (supabase/functions/_shared/invisible-characters.ts): controls, format characters (zero-width,
-- bidirectional overrides and isolates, tags…) and the line/paragraph separators. A direction
-- override in a name spoofs the sender the inbox shows ("Bob \u202Egnp.exe" reads "Bob exe.png").
-- The pattern lists the same ranges as INVISIBLE_RANGES (Unicode 17); a test checks that both
-- agree on every code point. NUL is left out: Postgres text cannot hold it at all.

create or replace function private.invisible_characters_pattern() returns text
language sql immutable parallel safe set search_path = ''
as $$
  select '[\u0001-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]'::text
$$;

create or replace function private.has_invisible_characters(value text) returns boolean
language sql immutable strict parallel safe set search_path = ''
as $$
  select value ~ private.invisible_characters_pattern()
$$;

revoke all on function private.invisible_characters_pattern(), private.has_invisible_characters(text) from public;
-- The CHECKs run as the inserting role, which must be allowed to call them.
grant execute on function private.invisible_characters_pattern(), private.has_invisible_characters(text) to anon, authenticated, service_role;

-- Rows stored before this rule: each invisible character of a name or an email becomes U+FFFD (a
-- visible "�", same length, so the other CHECKs still hold). The spoof is gone, the rest is kept,
-- and the constraints below hold for every row, so no later update of such a row can fail on them.
update public.contact_submissions
   set name = regexp_replace(name, private.invisible_characters_pattern(), chr(65533), 'g'),
       email = regexp_replace(email, private.invisible_characters_pattern(), chr(65533), 'g')
 where private.has_invisible_characters(name) or private.has_invisible_characters(email);

alter table public.contact_submissions
  add constraint contact_submissions_name_visible_check check (not private.has_invisible_characters(name)),
  add constraint contact_submissions_email_visible_check check (not private.has_invisible_characters(email));
