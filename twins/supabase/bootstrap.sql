-- Platform bootstrap for the local Supabase-compatible server (and for the PostgreSQL 15 portability
-- test): the parts of a Supabase database that our migrations rely on, reproduced from the public
-- supabase/postgres init scripts and supabase/auth migrations (see local/docs/supabase-wire.md
-- §8). A hosted project already has all of this; never push this file to one.
-- Idempotent: the server runs it before the migrations, once per data folder and version of this file
-- (database-worker.ts).

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin noinherit createrole;
  end if;
end
$$;

grant anon, authenticated, service_role to authenticator;

-- Supabase's API timeouts: anon 3 s, authenticated 8 s, and the connection role's 8 s for the others
-- (service_role). The local server enforces them per request (see database.ts).
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';

create schema if not exists extensions;
create schema if not exists auth authorization supabase_auth_admin;

grant usage on schema public, extensions to anon, authenticated, service_role;
grant usage on schema auth to anon, authenticated, service_role;
grant all on schema auth to supabase_auth_admin;

-- Supabase gives the API roles every privilege on new public objects; RLS is the gate.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255) not null default 'authenticated',
  role varchar(255) not null default 'authenticated',
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_anonymous boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- GoTrue's recovery columns (auth-recovery.ts); added to data folders made before them.
alter table auth.users add column if not exists recovery_token varchar(255);
alter table auth.users add column if not exists recovery_sent_at timestamptz;

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent varchar(255),
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table auth.users owner to supabase_auth_admin;
alter table auth.sessions owner to supabase_auth_admin;
alter table auth.refresh_tokens owner to supabase_auth_admin;
alter sequence auth.refresh_tokens_id_seq owner to supabase_auth_admin;

-- The helpers policies call (supabase/auth migrations): legacy single-claim GUC first, then the
-- JSON claims; nullif because a GUC once set reads back as '' afterwards.
create or replace function auth.uid() returns uuid
language sql stable set search_path = ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable set search_path = ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable set search_path = ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable set search_path = ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to anon, authenticated, service_role;

-- Bookkeeping of applied migrations, as the Supabase CLI keeps it.
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  name text,
  statements text[]
);

-- pg_cron, the subset the local twin needs (a hosted project enables the real extension instead; its
-- migrations detect either by the `cron` schema): the `cron.job` table and pg_cron's own signatures of
-- cron.schedule and cron.unschedule. Scheduling a job under an existing name replaces it, as pg_cron
-- does. The twin runs the jobs itself (cron-runner.ts: every active job once at start, then on its
-- schedule, as postgres) and records each run in cron.job_run_details, as pg_cron does (status
-- 'succeeded' or 'failed', the error as return_message); runs older than 7 days are deleted there (a
-- project purges them itself: pg_cron keeps them). Only failed runs reach the twin's log. Left out:
-- cron.alter_job, jobs in other databases or as other users, cron.timezone (schedules are read in
-- UTC, pg_cron's default GMT), job_pid (null).
create schema if not exists cron;
-- The runner runs commands as a superuser: no API role may add one.
revoke all on schema cron from public;

create table if not exists cron.job (
  jobid bigserial primary key,
  jobname name unique,
  schedule text not null,
  command text not null,
  active boolean not null default true
);

create table if not exists cron.job_run_details (
  jobid bigint,
  runid bigserial primary key,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);

-- pg_cron refuses what its parser cannot read; the shapes it accepts: five fields, @names, N seconds.
create or replace function cron.valid_schedule(schedule text) returns boolean
language sql immutable set search_path = ''
as $$
  select schedule ~ '^\s*(@(yearly|annually|monthly|weekly|daily|midnight|hourly|reboot)|[1-5]?[0-9] seconds?|\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s*$'
$$;

create or replace function cron.schedule(job_name name, schedule text, command text) returns bigint
language plpgsql set search_path = ''
as $$
declare
  id bigint;
begin
  if not cron.valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule;
  end if;
  insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
  on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid into id;
  return id;
end
$$;

create or replace function cron.schedule(schedule text, command text) returns bigint
language plpgsql set search_path = ''
as $$
declare
  id bigint;
begin
  if not cron.valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule;
  end if;
  insert into cron.job (schedule, command) values (schedule, command) returning jobid into id;
  return id;
end
$$;

create or replace function cron.unschedule(job_id bigint) returns boolean
language plpgsql set search_path = ''
as $$
begin
  delete from cron.job where jobid = job_id;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  return true;
end
$$;

create or replace function cron.unschedule(job_name name) returns boolean
language plpgsql set search_path = ''
as $$
begin
  delete from cron.job where jobname = job_name;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end
$$;

revoke all on all tables in schema cron from public, anon, authenticated, service_role;
revoke all on all functions in schema cron from public, anon, authenticated, service_role;

-- pg_net, the subset the local twin needs (supabase/pg_net's sql/pg_net.sql; a hosted project enables
-- the real extension instead): net.http_get and net.http_post with pg_net's signatures enqueue into
-- net.http_request_queue and return the request's id; the twin's worker (net-worker.ts) takes the
-- queued requests after their transaction commits, performs them (loopback addresses only) and
-- records each outcome in net._http_response under the same id, kept 6 hours (pg_net.ttl's default).
-- Left out: http_delete, the GUCs (pg_net.batch_size, pg_net.ttl…), net.http_collect_response, and the
-- grants to API roles (here only a superuser, e.g. a cron job, calls it).
create schema if not exists net;
revoke all on schema net from public;

do $$
begin
  if to_regtype('net.http_method') is null then
    create domain net.http_method as text check (value ilike 'get' or value ilike 'post');
  end if;
end
$$;

create table if not exists net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds integer not null
);

create table if not exists net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index if not exists _http_response_created_idx on net._http_response (created);

-- Percent-encodes everything but RFC 3986's unreserved characters, byte by byte in UTF-8.
create or replace function net._urlencode_string(string text) returns text
language sql immutable strict set search_path = ''
as $$
  select coalesce(string_agg(
    case when ch ~ '^[A-Za-z0-9_.~-]$' then ch
         else upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\1', 'g')) end,
    '' order by position), '')
  from regexp_split_to_table(string, '') with ordinality as parts(ch, position)
$$;

create or replace function net._encode_url_with_params(url text, params jsonb) returns text
language sql immutable set search_path = ''
as $$
  select url || coalesce(
    (select case when strpos(url, '?') > 0 then '&' else '?' end
            || string_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value), '&')
       from jsonb_each_text(coalesce(params, '{}'::jsonb))
     having count(*) > 0),
    '')
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql volatile set search_path = ''
as $$
  insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
  values ('GET', net._encode_url_with_params(url, params), headers, timeout_milliseconds)
  returning id
$$;

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql volatile set search_path = ''
as $$
declare
  request_id bigint;
begin
  if body is null then
    raise exception 'body must not be null';
  end if;
  -- As pg_net: headers without a content type get JSON's.
  if not exists (select 1 from jsonb_object_keys(coalesce(headers, '{}'::jsonb)) as k(name) where lower(name) = 'content-type') then
    headers := coalesce(headers, '{}'::jsonb) || '{"Content-Type": "application/json"}'::jsonb;
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('POST', net._encode_url_with_params(url, params), headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  return request_id;
end
$$;

revoke all on all tables in schema net from public, anon, authenticated, service_role;
revoke all on all functions in schema net from public, anon, authenticated, service_role;

-- Supabase Vault, the subset a project's SQL uses (supabase/vault): vault.create_secret,
-- vault.update_secret and the vault.decrypted_secrets view. Not encrypted here: the twin's only
-- secrets are its own URL and well-known local service key, which it stores at every start.
create schema if not exists vault;
revoke all on schema vault from public;

create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists secrets_name_idx on vault.secrets (name) where name is not null;

create or replace view vault.decrypted_secrets as
  select id, name, description, secret, secret as decrypted_secret, key_id, nonce, created_at, updated_at
  from vault.secrets;

create or replace function vault.create_secret(
  new_secret text,
  new_name text default null,
  new_description text default '',
  new_key_id uuid default null
) returns uuid
language sql volatile set search_path = ''
as $$
  insert into vault.secrets (secret, name, description, key_id)
  values (new_secret, new_name, new_description, new_key_id)
  returning id
$$;

create or replace function vault.update_secret(
  secret_id uuid,
  new_secret text default null,
  new_name text default null,
  new_description text default null,
  new_key_id uuid default null
) returns void
language sql volatile set search_path = ''
as $$
  update vault.secrets
     set secret = coalesce(new_secret, secret), name = coalesce(new_name, name),
         description = coalesce(new_description, description), key_id = coalesce(new_key_id, key_id),
         updated_at = now()
   where id = secret_id
$$;

revoke all on all tables in schema vault from public, anon, authenticated, service_role;
revoke all on all functions in schema vault from public, anon, authenticated, service_role;
