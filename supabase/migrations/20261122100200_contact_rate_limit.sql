-- Server-side rate limit on contact messages per client address (spec §9 asks for a cooldown; the
-- browser's can be bypassed, this one cannot). Over the limit an insert fails with SQLSTATE PT429,
-- which PostgREST answers as HTTP 429 and the form shows as 'Veuillez patienter'.
--
-- The client address comes from request.headers, which PostgREST fills from the HTTP request. Only
-- the entries added by proxies we trust count: with trusted_proxy_hops = n, the address is the n-th
-- entry from the right of client_ip_header (a client can prepend anything, but not append); with 0
-- the header's whole value is taken (for a header the edge sets and overwrites, e.g. cf-connecting-ip).
-- The local server appends the socket's address to x-forwarded-for, hence the defaults.

create table private.settings (
  key text primary key,
  value text not null
);

insert into private.settings (key, value) values
  ('contact_rate_limit_max', '5'),
  ('contact_rate_limit_window_seconds', '600'),
  ('client_ip_header', 'x-forwarded-for'),
  ('trusted_proxy_hops', '1');

create table private.contact_rate_events (
  client_ip text not null,
  created_at timestamptz not null default now()
);
create index contact_rate_events_ip_time_idx on private.contact_rate_events (client_ip, created_at);
create index contact_rate_events_time_idx on private.contact_rate_events (created_at);

alter table private.settings enable row level security;
alter table private.contact_rate_events enable row level security;
revoke all on private.settings, private.contact_rate_events from public, anon, authenticated;

create or replace function private.request_client_ip(header_name text, hops integer) returns text
language plpgsql stable set search_path = ''
as $$
declare
  headers jsonb := nullif(current_setting('request.headers', true), '')::jsonb;
  raw text;
  parts text[];
begin
  if headers is null then
    return null; -- not an API request (SQL editor, migrations): no limit
  end if;
  raw := headers ->> lower(header_name);
  if raw is null or btrim(raw) = '' then
    return 'unknown'; -- an API request without the header shares one bucket rather than escaping
  end if;
  if hops <= 0 then
    return btrim(raw);
  end if;
  parts := string_to_array(raw, ',');
  if array_length(parts, 1) < hops then
    return 'unknown';
  end if;
  return btrim(parts[array_length(parts, 1) - hops + 1]);
end
$$;

-- SECURITY DEFINER: the visitor's role may not read or write the private tables itself.
create or replace function private.enforce_contact_rate_limit() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  settings jsonb := (select jsonb_object_agg(key, value) from private.settings);
  client text := private.request_client_ip(coalesce(settings ->> 'client_ip_header', 'x-forwarded-for'), coalesce(settings ->> 'trusted_proxy_hops', '1')::integer);
  max_count integer := coalesce(settings ->> 'contact_rate_limit_max', '5')::integer;
  window_length interval := make_interval(secs => coalesce(settings ->> 'contact_rate_limit_window_seconds', '600')::integer);
  recent integer;
begin
  if client is null or auth.role() = 'service_role' then
    return new;
  end if;
  -- Serialise concurrent inserts from one address so the count cannot be raced.
  perform pg_advisory_xact_lock(hashtext('contact_rate_limit:' || client));
  delete from private.contact_rate_events where created_at < now() - window_length;
  -- Counting stops at the limit: the cost stays constant however busy an address is.
  select count(*) into recent from (
    select 1 from private.contact_rate_events
    where client_ip = client and created_at >= now() - window_length
    limit max_count
  ) as within_window;
  if recent >= max_count then
    raise exception using
      errcode = 'PT429',
      message = 'Too many messages from this address',
      hint = 'Wait a few minutes before sending another message';
  end if;
  insert into private.contact_rate_events (client_ip) values (client);
  return new;
end
$$;

revoke execute on function private.enforce_contact_rate_limit() from public, anon, authenticated;
revoke execute on function private.request_client_ip(text, integer) from public, anon, authenticated;

create trigger contact_submissions_rate_limit
before insert on public.contact_submissions
for each row execute function private.enforce_contact_rate_limit();
