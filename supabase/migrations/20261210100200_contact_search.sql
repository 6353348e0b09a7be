-- The inbox's search ignores accents and case (« FENETRE » finds « fenêtre »). Each message's name,
-- email and text are folded into a stored column, which the inbox matches with ILIKE against the
-- search term folded the same way in the browser (lib/admin/search-folding.ts: the same steps, in the
-- same order; a test compares the two on every code point of the BMP, on PGlite and PostgreSQL 15).
-- Plain SQL rather than the unaccent extension: PGlite only has it when loaded by the embedding code,
-- and unaccent is not immutable, so a generated column could not use it directly.

create or replace function private.fold_for_search(value text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select translate(
    replace(replace(replace(replace(replace(replace(
      regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g'),
      'œ', 'oe'), 'Œ', 'oe'), 'æ', 'ae'), 'Æ', 'ae'), 'ß', 'ss'), 'ẞ', 'ss'),
    'ABCDEFGHIJKLMNOPQRSTUVWXYZøØđĐłŁ' || U&'\2019\2018\00A0\202F',
    'abcdefghijklmnopqrstuvwxyzooddll''''  '
  )
$$;

revoke all on function private.fold_for_search(text) from public;
-- Evaluated for the row's role whenever a message is inserted or marked read.
grant execute on function private.fold_for_search(text) to anon, authenticated, service_role;

-- A line break between the fields (a search box cannot type one): a term never matches across two.
-- No index: ILIKE '%…%' cannot use a B-tree, a trigram index needs pg_trgm (which PGlite loads only
-- on demand), and the inbox holds at most three years of messages.
alter table public.contact_submissions
  add column search_text text generated always as (
    private.fold_for_search(name || E'\n' || email || E'\n' || message)
  ) stored;

comment on column public.contact_submissions.search_text is
  'Name, email and message without accents, for the inbox search (see private.fold_for_search).';
